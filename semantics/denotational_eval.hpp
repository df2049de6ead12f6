// Denotational evaluation [[M]] phi gamma (paper Fig. 7): the mathematical meaning of a term,
// computed compositionally and independently of the operational semantics (it shares no
// evaluation code with semantics/ordinary_eval, semantics/symbolic_eval or ad/: only the
// signature [[op]] = ev(op, -) and [[pred]] = bev(pred, -) of op_eval.hpp, eqs. 11-12).
//
//   [[M.rd_L(x:T. N)]] phi gamma = d^r at [[L]] phi gamma of (a |-> [[N]] phi gamma[a/x]),
//                                  applied to [[M]] phi gamma       (= J^T w, eq. 4)
//
// The Jacobian J is computed by forward mode with tagged infinitesimals
// (semantics/tagged_dual.hpp): one pass per input dimension, each perturbing one coordinate of
// [[L]] by the infinitesimal of the current differentiation level; nested rd terms use deeper
// levels, so nesting never confuses perturbations. J^T w is an Eigen product. The result is
// exact up to the rounding of the scalar type.
//
//   [[letrec f(x:T):U = M in N]] phi gamma = [[N]] (phi[mu alpha. lambda a. [[M]](phi[alpha/f]) a
//                                                     / f]) gamma
//
// The least fixed point is the sup of the Kleene approximants mu_n (Sec. 4.3): mu_0 is the
// everywhere-undefined function and mu_(n+1) = lambda a. [[M]](phi[mu_n/f]) a. By Lemma 6.5
// [[M]] = sup_n [[M^(n)]], where M^(n) replaces every letrec by letrec_n (Fig. 8), so the
// evaluator computes [[M^(n)]] for n = 1, 2, 4, ... until it is defined, is undefined for a
// reason that no larger n can change (a predicate or operator outside its domain met before
// any approximant ran out), or n passes a bound. With `unfold` set it computes [[M^(n)]] for
// that n only: the limited language of Fig. 8. A group of mutually recursive top-level defs is
// one recursive binding of a tuple of functions, approximated as a whole.
//
// Undefinedness (bottom) is an Undefined exception with its reason and the location of the
// responsible term, with the same predicate semantics (strict or total) and operator domains
// as the operational side.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "lang/name.hpp"
#include "lang/term.hpp"
#include "semantics/op_eval.hpp"
#include "semantics/value.hpp"

namespace adlang {

struct DenotationOptions {
  PredicateMode predicates = PredicateMode::Strict;
  // The limited language of Fig. 8: every letrec denotes its approximant mu_n for this n.
  std::optional<std::uint64_t> unfold;
  // Without `unfold`: the largest approximant tried before reporting the value undefined.
  std::uint64_t max_approximant = std::uint64_t(1) << 16;
  // Function calls allowed over all attempts; running out is reported (UndefinedKind::Fuel).
  std::uint64_t fuel = 10'000'000;
  // Differentiation levels (tags) nested inside one another. A number carries 2^k parts at
  // level k, so each level doubles the cost of every operation below it; 16 levels (65,536
  // parts) is where a recursion through a derivative is reported (docs/robustness.md).
  std::uint64_t max_rd_nesting = 16;
};

struct DenotationStats {
  std::uint64_t approximant = 0;       // the n of the approximant mu_n that gave the value
  std::uint64_t attempts = 0;          // approximants tried
  std::uint64_t calls = 0;             // calls of approximated functions, over all attempts
  std::uint64_t jacobian_columns = 0;  // forward-mode passes made for rd
};

// gamma: the inputs, each a variable and its (closed) value of the variable's type.
template <class S>
using DenEnv = std::vector<std::pair<Name, Value<S>>>;

// [[M]] gamma for a term M whose free variables are bound in gamma and that has no free
// function variables. Throws Undefined when the meaning is undefined (with the reason),
// StackExhausted when the evaluation nests too deeply for the stack.
template <class S>
Value<S> denote(const Term& m, const DenEnv<S>& gamma, const DenotationOptions& options = {},
                DenotationStats* stats = nullptr);

// Forward mode: d_a(f)(v) = J_a(f) v for f = b |-> [[N]] gamma[b/x] (eq. 3), by dual numbers.
// The witness for forward-via-reverse (eq. 6). Same failure behaviour as denote().
template <class S>
Value<S> denote_forward(const Term& n, Name x, const Value<S>& a, const Value<S>& v,
                        const DenEnv<S>& gamma, const DenotationOptions& options = {},
                        DenotationStats* stats = nullptr);

}  // namespace adlang
