// A call that recurs: the evaluation of f(V) reaching the same call f(V) again, with the same
// closure clo_phi(f) and the same value V, through a chain of calls in the trivial context
// (Fig. 4's call rule, which symbolic evaluation continues in its loop: a loop written as tail
// recursion). Evaluation is deterministic and a function body sees only its parameter and its
// function environment (Figs. 2-4), so after the second such call the evaluation does again
// exactly what it did after the first, forever: there is no derivation, and the term is
// undefined. This is a proof that the evaluation does not end, not a budget: nothing raises it.
//
// A recursion through a derivative that loops with a fixed argument (the gradient of a
// piecewise linear body is constant: `f(2, grad[x](y. g(1, y)))` calls f(2, c) with the same c
// each time) grows its trace by the trace of the gradient at each turn; this finds it at its
// second or third turn instead of when the trace budget runs out (docs/robustness.md).
//
// Brent's algorithm: one saved call, compared with each call of the chain; the saved call is
// replaced by the current one after 1, 2, 4, 8, ... calls, so a cycle of L calls entered after
// M calls is found within about 2(M + L) calls, in constant memory, and only when it is one.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "lang/term.hpp"
#include "semantics/environment.hpp"
#include "semantics/value.hpp"

namespace adlang {

// The same scalar: for double the same bits (-0 and 0 differ), for MPFR floats the same number
// and sign, for rationals equality.
template <class S>
bool same_scalar(const S& a, const S& b) {
  if constexpr (std::is_same_v<S, double>) {
    return std::memcmp(&a, &b, sizeof(double)) == 0;
  } else if constexpr (ScalarTraits<S>::exact) {
    return a == b;
  } else {
    return a == b && boost::multiprecision::signbit(a) == boost::multiprecision::signbit(b);
  }
}

// The same function environment: frames of the same letrec groups with the same unfolding
// bounds, all the way out (lookup_function depends on nothing else).
inline bool same_functions(const FunFrame* a, const FunFrame* b) {
  for (; a != b; a = a->parent, b = b->parent) {
    if (!a || !b || a->group != b->group || a->unfold_left != b->unfold_left) return false;
  }
  return true;
}

template <class S>
class RepeatedCall {
 public:
  // The next call of the chain: the callee's definition, the function environment its body
  // runs under, and its argument. True when it is a call the chain has made before. `env` must
  // stay alive as long as this chain does.
  bool repeats(const FunDef* def, const FunFrame* env, const Value<S>& arg) {
    if (def == def_ && same_functions(env, env_) && same_value(arg)) return true;
    if (++since_saved_ == period_) {
      def_ = def;
      env_ = env;
      arg_ = arg;
      since_saved_ = 0;
      period_ *= 2;
    }
    return false;
  }

 private:
  bool same_value(const Value<S>& arg) const {
    if (arg.size() != arg_.size()) return false;
    for (std::size_t i = 0; i < arg.size(); ++i)
      if (!same_scalar(arg[i], arg_[i])) return false;
    return true;
  }

  const FunDef* def_ = nullptr;
  const FunFrame* env_ = nullptr;
  Value<S> arg_;
  std::uint64_t since_saved_ = 0;
  std::uint64_t period_ = 1;
};

}  // namespace adlang
