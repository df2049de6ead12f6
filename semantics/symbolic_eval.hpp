// Symbolic evaluation phi | rho |- M ~> C (paper Figs. 4-5): tracing. Conditionals and calls
// disappear, free variables stay, and the trace C has exactly the let-structure of the
// figures: a redex R in a non-trivial context E becomes `let x:T_V = C in D` (Fig. 5), a call
// f(V) becomes `let x:T = V in C` (Fig. 4), and W.rd_V(x:T. N) becomes W.R_V(x:T. C).
//
// Fig. 5 needs the value V of each redex's trace C (phi | rho |- C => V) to continue with
// E[x] under rho[V/x]; the evaluator computes it alongside the trace (the two agree by
// Prop. 3.5, which the test suite checks by evaluating traces independently).
#pragma once

#include "lang/term.hpp"
#include "semantics/environment.hpp"
#include "semantics/eval_context.hpp"
#include "semantics/value.hpp"

namespace adlang {

template <class S>
struct Traced {
  Term trace;      // C
  Value<S> value;  // the value of C under rho
};

// The trace of M under phi and rho, and its value. Throws Undefined when M has no trace.
template <class S>
Traced<S> symbolic_eval(const Term& m, ValueEnv<S>& rho, const FunFrame* phi, EvalContext& cx);

}  // namespace adlang
