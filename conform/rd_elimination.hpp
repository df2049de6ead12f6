// The program's own derivative as code: replaces every M.rd_L(x:T. N) by a term without rd that
// computes it, so that the plain-Python export needs no AD library
// (conform/python_export.hpp).
//
// The paper's R (Fig. 6) is defined on trace terms, which are known only at run time. Here it is
// staged over the whole language, innermost rd first, as W.D_V(x:T. N) with W and V variables:
//
//   N a trace term        the linear R, W.R_V(x:T. N) (ad/linear_reverse_deriv.hpp);
//   if B then N1 else N2  let x = V in if B then W.D_V(x. N1) else W.D_V(x. N2): the branch
//                         the trace at V takes (Figs. 4-5 record only the branch taken);
//   let y = A in B        Fig. 6's let clause: let y = A[V/x] in
//                         W.D_V(x. B) +_T (W.D_y(y. B[V/x])).D_V(x. A);
//   f(A)                  let a = A[V/x] in (f_rd(<a, W>)).D_V(x. A), with the derivative
//                         function f_rd(q) = (snd q).D_{fst q}(p. body_f) (recursion stays
//                         recursion; recursion through rd gives f_rd calling f_rd);
//   other forms           first named by lets (A-normal form), then the let clause.
//
// Function definitions (closed, Fig. 1) are gathered into one letrec group around the result,
// with the derivative functions. Under strict predicates the result is undefined where the
// original is (a tie in a guard at V is a tie in the same guard here); its values agree with
// the reference evaluator (tests/conform/rd_elimination_test.cpp).
#pragma once

#include <cstdint>

#include "lang/name.hpp"
#include "lang/term.hpp"

namespace adlang::conform {

// `t` without rd. `names` must know every name of t. Throws ExportTooLarge
// (conform/python_export.hpp) when the result would exceed `max_nodes` term nodes.
Term eliminate_rd(const Term& t, NameSupply& names, std::uint64_t max_nodes);

}  // namespace adlang::conform
