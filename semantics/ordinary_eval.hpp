// Ordinary evaluation phi | rho |- M => V (paper Figs. 2-3): call-by-value, left to right.
//
// Fig. 3 evaluates a term E[R] by evaluating the redex R to V and then E[x] with x bound to V;
// by unique decomposition (Lemma 3.1) that is the same as evaluating the subterms in
// evaluation position left to right and then the redex they form, which is what this
// evaluator does (docs/semantics.md). The redex rules are Fig. 2's; the differentiation redex
// W.rd_V(x:T. N) is evaluated as the figure says: symbolically evaluate it to the trace
// W.R_V(x:T. C) and evaluate that trace.
#pragma once

#include "lang/term.hpp"
#include "semantics/environment.hpp"
#include "semantics/eval_context.hpp"
#include "semantics/value.hpp"

namespace adlang {

// The value of M under phi and rho. Throws Undefined when M has no value (with the reason
// and location), StackExhausted when evaluation nests too deeply for the stack.
template <class S>
Value<S> ordinary_eval(const Term& m, ValueEnv<S>& rho, const FunFrame* phi, EvalContext& cx);

// phi | rho |- B => V_bool.
template <class S>
bool ordinary_eval_bool(const BoolTerm& b, ValueEnv<S>& rho, const FunFrame* phi, EvalContext& cx);

// rho(V): the closed value of a value term V (Sec. 3), whose variables are bound in rho.
template <class S>
Value<S> close_value(const Term& v, const ValueEnv<S>& rho);

// The scalar a literal denotes in precision S; Undefined if it is outside S's range.
template <class S>
S literal_value(const Literal& lit);

// Function calls: the callee's function environment for calling `clo` (the paper's
// phi'[phi(f)/f]); in the limited language (Fig. 8) a closure clo_{n+1} is called with its
// group bound to clo_n, built in `scratch`. Throws Undefined for clo_0 or when out of fuel.
const FunFrame* enter_call(const Closure& clo, FunFrame& scratch, EvalContext& cx, SourceLoc loc);

}  // namespace adlang
