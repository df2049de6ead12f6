// Editing terms for the shrinker, over lang/term_visitor.hpp's generic walk. well_scoped() is
// the check a shrunk candidate must pass: the IR verifier's (lang/verifier.hpp).
#pragma once

#include <vector>

#include "lang/term.hpp"
#include "lang/vector_space.hpp"

namespace adlang::checker {

// Phi | Gamma |- t : t.type() with Phi empty and Gamma = inputs, scoping-wise (Fig. 1,
// including "no free ordinary variables in function bodies").
bool well_scoped(const Term& t, const std::vector<TypedName>& inputs);

// Every subterm of t in preorder (t first).
std::vector<Term> subterms(const Term& t);

// t with its preorder subterm number `index` replaced by `by` (of the same type), its calls
// resolved again; null if the rebuilt term is ill-typed.
Term replace_subterm(const Term& t, std::size_t index, const Term& by);

// True if every operator of t is in the polynomial fragment (exact rationals compute it).
bool is_polynomial_term(const Term& t);

// Nodes of t as a tree (the counterexample size).
std::size_t node_count(const Term& t);

}  // namespace adlang::checker
