// An efficient W.R_V(x:T. C): reverse accumulation over the trace's let structure, with the
// same signature and meaning as the paper's R (ad/reverse_deriv.hpp, the reference), so it
// plugs into EvalOptions::reverse_deriv and nesting works unchanged (its output is again a
// trace term).
//
// The output has the classic shape of reverse-mode AD:
//
//   let x':T = V in
//   let z1 = e1 in ... let zn = en in        -- the primal: C's operations once, in order
//   let a_n = ... in ... let a_1 = ... in    -- adjoints, one per live primal binding, reversed
//   <the adjoint of x'>
//
// where each e_i is one operation of C on variables and literals (an op, a built-in +, a
// projection of a variable, or a tuple of variables), and each adjoint let applies the operator
// table's reverse template (lang/reverse_template.hpp) to the adjoint of a binding, sending the
// parts to the adjoints of its operands. Tuples and projections are resolved statically: the
// adjoint of a variable of product type is kept component-wise, so fst/snd, pairs and `let`s of
// variables cost nothing (0_T and +_T are built only where a component is actually needed).
//
// Zero propagation: an adjoint that is structurally zero (no contribution reaches it, or the
// cotangent is a literal zero) is never built, and neither is anything sent from it; the adjoint
// lets of bindings whose adjoint is zero are therefore absent. This is safe because every op_r
// is defined wherever its op is (tests/ad/linear_reverse_deriv_test.cpp checks the table), so
// dropping an adjoint computation never removes undefinedness that the primal would not already
// have: all primal lets are kept, so the output is undefined exactly where C is (apart from
// adjoint values outside a precision's range, as with the paper's R).
//
// Size: the output has at most k * (|C| + |V| + |W|) nodes with k = 24 (|.| counts nodes of the
// term tree, and an operator on real^n vectors counts as n nodes, since adding two real^n
// adjoints takes n additions in this language); tests/ad/linear_reverse_deriv_test.cpp checks
// the bound on random traces. Work is linear in the same measure. Walks are iterative along let
// chains, so traces of loops a million steps long are fine.
#pragma once

#include <cstdint>

#include "ad/reverse_deriv.hpp"
#include "lang/name.hpp"
#include "lang/term.hpp"

namespace adlang {

// The k of the size bound above.
inline constexpr double kLinearReverseSizeFactor = 24;

// W.R_V(x:T. C), computed by reverse accumulation. Same contract as reverse_deriv(): C is a
// trace term with Gamma[x:T] |- C : U, V : T and W : U are values that may have free
// variables; the result has type T. `max_steps` bounds the work (nodes of C visited plus
// adjoint steps), counted into stats->clause_steps; DerivativeTooLarge when exceeded.
Term linear_reverse_deriv(const Term& w, const Term& v, Name x, Type t, const Term& c,
                          NameSupply& names, std::uint64_t max_steps = UINT64_MAX,
                          ReverseDerivStats* stats = nullptr);

// The weighted size that bound uses: tree nodes, with each dot_n / scale_n node counted as n.
double weighted_term_size(const Term& t);

}  // namespace adlang
