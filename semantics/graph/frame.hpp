// An activation's frame in the threaded executor (executor.cpp), its counters, and the return
// that ends it: a tag t/i of the thesis (Sec. 5.2.1, the tags of Call_i and Return_i; Sec. 5.3)
// is a Frame whose CallLink (call_chain.hpp) names its parent t and call site i, and a frame
// counts what keeps it alive (docs/graph.md, "A frame counts what keeps it alive"). Where a
// frame's memory comes from is frame_memory.hpp's.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "lang/diagnostics.hpp"
#include "semantics/graph/call_chain.hpp"
#include "semantics/graph/schedule.hpp"
#include "semantics/graph/token.hpp"

namespace adlang::graph {

struct TagNode;  // saved_values.hpp

// One activation of a body: the tag t/i of its tokens is this frame, whose parent is t and
// whose call site is i (site: global, UINT32_MAX for the main frame, whose parent is null).
// `live` counts what keeps it alive: one until its outputs have all been sent, plus its blocks
// that are ready or running, plus its live child frames. Its counts are plain integers; a
// threaded executor changes those of a frame that another worker may touch by atomic operations
// on the plain integers (FrameCounts), and makes the others as cheaply as one thread does.
struct Frame : CallLink<Frame*> {
  std::uint32_t local;  // the call site's index among the parent body's sites (CallSite::local)
  std::int64_t live;
  std::int32_t exits_pending;  // outputs not yet sent
  bool returned;               // every output sent: the parent may be gone
  bool shared;                 // threaded: another worker may touch its counts
  bool holds_parent;           // threaded: returned, and still holding its parent (free_frame)
  const Schedule* code;        // the body (Dynamic: this activation's own copy)
  Token* slots;                // output slots of the body's nodes
  TagNode* tag;  // its tag in the store, or null (no reverse mode); a root is the frame's own

  // Per block: signals still missing. They follow the frame.
  std::int32_t* pending() { return reinterpret_cast<std::int32_t*>(this + 1); }
};
static_assert(std::is_trivially_copyable_v<Frame> && sizeof(Frame) % 16 == 0);

// The counters of frames, for an executor with one thread (plain operations) or several. With
// several threads, the counts of a shared frame are changed by GCC's and Clang's __atomic
// builtins on its plain integers (std::atomic_ref is missing from the libc++ of the sanitizer
// and WebAssembly builds); its flags are read and written by them always.
template <bool Threaded>
struct FrameCounts {
  template <class T>
  static T dec(const Frame* f, T& c, std::type_identity_t<T> n) {
    if constexpr (Threaded) {
      if (flag(f->shared)) return __atomic_sub_fetch(&c, n, __ATOMIC_ACQ_REL);
    }
    return c -= n;
  }
  template <class T>
  static void inc(const Frame* f, T& c, std::type_identity_t<T> n) {
    if constexpr (Threaded) {
      if (flag(f->shared)) {
        __atomic_fetch_add(&c, n, __ATOMIC_RELAXED);
        return;
      }
    }
    c += n;
  }
  template <class T>
  static void set(T& c, std::type_identity_t<T> v) {
    if constexpr (Threaded) {
      __atomic_store_n(&c, v, __ATOMIC_RELAXED);
    } else {
      c = v;
    }
  }
  template <class T>
  static T get(const T& c) {
    if constexpr (Threaded) {
      return __atomic_load_n(&c, __ATOMIC_RELAXED);
    } else {
      return c;
    }
  }
  // A frame's flag that another worker may write (shared, returned).
  static bool flag(const bool& b) { return get(b); }
  static std::int64_t live_of(const Frame* f) { return get(f->live); }

  // Whether block b of f has all its inputs after n more signals. A block that waits for n
  // signals in all (one predecessor, or a Merge whose three inputs come at once) has a single
  // signaller, and its count is not touched.
  static bool arrive(Frame* f, std::uint32_t b, std::int32_t n) {
    return arrive(f, b, f->code->blocks[b].pending, n);
  }
  // The same, for a block that waits for `pending` signals in a fresh frame.
  static bool arrive(Frame* f, std::uint32_t b, std::int32_t pending, std::int32_t n) {
    if (pending == n) return true;
    std::int32_t left = dec(f, f->pending()[b], n);
    internal_check(left >= 0, "a block of the graph was signalled too often");
    return left == 0;
  }

  // ---- the return (Exit_k of t/i to Return_i^k in t: executor.cpp, send_output) ----

  // One more of f's outputs has been sent: whether it was the last.
  static bool last_output(Frame* f) {
    return f->code->exits == 1 || dec(f, f->exits_pending, 1) == 0;
  }

  // f (not the main frame, `root`) has sent its last output: its parent's return block, now
  // ready.
  //
  // The return block takes over f's hold on its parent. With several threads, a shared f (one
  // another worker may touch) gives the return block a hold of its own instead, and keeps its
  // hold until it is freed: another worker may be walking from f's activation up to the main
  // frame (key_at, at an undefinedness below f), reading f->parent's fields, and after f has
  // returned the return block may end its parent's activation at any moment. A frame that is
  // not shared is only touched by the worker returning it. The main frame, never freed during a
  // run, is not held (its count ends the run).
  static std::uint32_t returned_to(Frame* f, const Frame* root) {
    Frame* const parent = f->parent;
    if constexpr (Threaded) {
      if (flag(f->shared) && parent != root) {
        inc(parent, parent->live, 1);
        f->holds_parent = true;
      }
    }
    set(f->returned, true);
    const std::uint32_t rb = parent->code->return_block[f->local];
    const bool ready = arrive(parent, rb, 1);
    internal_check(ready, "a return block waits for more than its callee");
    return rb;
  }

  // The key of an undefinedness at node `pos` of frame f (call_chain.hpp). From a frame that
  // has sent its outputs (or one below it) nothing can reach the result any more, and its parent
  // may be freed: such an undefinedness gets the last key. Every frame the walk reaches is
  // alive: f is (its block runs), and a frame holds its parent until it returns, or, when
  // another worker may return it (shared), until it is freed (returned_to).
  static std::vector<std::uint32_t> key_at(const Graph& g, const Frame* f, std::uint32_t pos) {
    return call_chain_key(
        g, f, pos, static_cast<const Frame*>(nullptr),
        [](const Frame* x) -> const CallLink<Frame*>& { return *x; },
        [](const Frame* x) { return get(x->returned); });
  }
};

}  // namespace adlang::graph
