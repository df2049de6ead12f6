// Environments of the operational semantics (paper Sec. 3): value environments rho from
// ordinary variables to closed values, function environments phi from function variables to
// closures clo_phi(f(x:T):U. M).
//
// rho is a stack of bindings; a function body sees only its parameter, so a call opens a new
// frame whose lookups stop at the frame's base. phi is a chain of letrec groups: the closure
// of f bound by a group is (group frame, index), and evaluating f's body under that frame is
// the paper's phi'[phi(f)/f] (for a group, all of its functions are visible). The language is
// first order, so closures never outlive the evaluation of their letrec's body and frames can
// live on the evaluator's C++ stack.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/name.hpp"
#include "lang/name_index.hpp"
#include "lang/term.hpp"
#include "semantics/value.hpp"

namespace adlang {

template <class S>
class ValueEnv {
 public:
  void push(Name x, Value<S> v) { stack_.push_back(Binding{x, std::move(v), NameIndex::kNone}); }
  void pop() {
    if (stack_.size() <= indexed_) {
      // The top binding is in the index: x's innermost binding is again the one it shadowed.
      const Binding& b = stack_.back();
      index_.leave(b.name, b.shadowed);
      indexed_ = stack_.size() - 1;
    }
    stack_.pop_back();
  }
  // The value of x, or null when x is not bound in the current frame. The pointer is valid
  // until the next push. The few most recent bindings are scanned; beyond them an index by
  // name answers (traces bind hundreds of thousands of names in one frame), brought up to date
  // only then: most evaluations never need it.
  const Value<S>* lookup(Name x) const {
    constexpr std::size_t kScan = 8;
    std::size_t low = stack_.size() - std::min(stack_.size() - base_, kScan);
    for (std::size_t i = stack_.size(); i > low; --i)
      if (stack_[i - 1].name == x) return &stack_[i - 1].value;
    if (low == base_) return nullptr;
    catch_up();
    std::uint32_t i = index_.find(x);  // the innermost binding of x
    return i != NameIndex::kNone && i >= base_ ? &stack_[i].value : nullptr;
  }

  struct Frame {
    std::size_t base, size;
  };
  // Opens a frame in which only bindings pushed from now on are visible.
  Frame enter_frame() {
    Frame saved{base_, stack_.size()};
    base_ = stack_.size();
    return saved;
  }
  // Records the current state to return to with leave_frame(), without hiding anything.
  Frame enter_frame_keeping_visible() const { return Frame{base_, stack_.size()}; }
  void leave_frame(Frame saved) {
    while (stack_.size() > saved.size)
      pop();
    base_ = saved.base;
  }
  // Leaves the frame `saved` when it goes out of scope, if leave() has not: also when an
  // exception passes, by a destructor rather than a catch and rethrow (a rethrow searches the
  // stack for a handler all over again, docs/performance.md Sec. 7).
  class FrameExit {
   public:
    FrameExit(ValueEnv& rho, Frame saved) : rho_(rho), saved_(saved) {}
    FrameExit(const FrameExit&) = delete;
    FrameExit& operator=(const FrameExit&) = delete;
    ~FrameExit() {
      if (!left_) rho_.leave_frame(saved_);
    }
    void leave() {
      rho_.leave_frame(saved_);
      left_ = true;
    }

   private:
    ValueEnv& rho_;
    Frame saved_;
    bool left_ = false;
  };
  std::size_t size() const { return stack_.size(); }

 private:
  struct Binding {
    Name name;
    Value<S> value;
    mutable std::uint32_t shadowed;  // in the index: the binding of name this one hides
  };
  // Enters the bindings pushed since the index was last brought up to date.
  void catch_up() const {
    for (; indexed_ < stack_.size(); ++indexed_)
      stack_[indexed_].shadowed =
          index_.enter(stack_[indexed_].name, static_cast<std::uint32_t>(indexed_));
  }
  std::vector<Binding> stack_;
  std::size_t base_ = 0;
  // Bindings [0, indexed_) are in index_, which holds each name's innermost one among them.
  mutable std::size_t indexed_ = 0;
  mutable NameIndex index_;
};

// One letrec group in the chain of function environments.
struct FunFrame {
  const LetRec* group;
  const FunFrame* parent;
  // The unfolding bound of this binding in the limited language (Fig. 8): calls through this
  // frame may unfold `unfold_left` more times; unused (UINT64_MAX) in the ordinary language.
  std::uint64_t unfold_left = UINT64_MAX;
};

// clo_phi(f(x:T):U. M): the function def and the environment (frame) it was defined in.
struct Closure {
  const FunFrame* frame = nullptr;
  const FunDef* def = nullptr;
};

// phi(f): the binding of f, found by its id (lang/resolve.hpp), not by name: the innermost frame
// of f's group.
inline Closure lookup_function(const FunFrame* phi, const FunRef& f) {
  internal_check(f.id != FunId::Unresolved, "a call of an unresolved function");
  for (const FunFrame* fr = phi; fr; fr = fr->parent)
    for (const FunDef& d : fr->group->defs)
      if (d.id == f.id) return Closure{fr, &d};
  return Closure{};
}

}  // namespace adlang
