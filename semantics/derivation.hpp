// Derivation trees of the paper's evaluation judgements: each node is one rule of Figs. 2-5,
// by the paper's name, with its judgement (function environment, environment, subject,
// result) and its premises.
//
// They are built from what the evaluators report while they run (derivation_recorder.hpp):
// the ordinary and symbolic evaluators establish every judgement; this file only arranges the
// record into the rules' shape. The ordinary evaluator evaluates the subterms in evaluation
// position left to right and then the redex they form; by unique decomposition (Lemma 3.1)
// that is Fig. 3's rule E[R] => W applied to the leftmost innermost redex, and the
// arrangement makes those context steps explicit: R is replaced by a fresh variable bound to
// its value, exactly as the rule reads (docs/teaching.md).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lang/name.hpp"
#include "lang/term.hpp"
#include "semantics/derivation_recorder.hpp"

namespace adlang {

enum class Judgement {
  Eval,      // phi | rho |- M => V       (Figs. 2-3)
  EvalBool,  // phi | rho |- B => V_bool  (Figs. 2-3)
  Sym,       // phi | rho |- M ~> C       (Figs. 4-5)
};

// The environment of a judgement: a persistent list, innermost binding first, shared by the
// judgements of a tree (so a derivation costs memory linear in its size, not quadratic).
struct DerivationEnvCell {
  Name name;
  std::string value;
  std::shared_ptr<const DerivationEnvCell> next;
};

struct Derivation {
  std::string rule;  // the paper's name: "let", "if true", "E[R]", ...
  int figure = 0;    // 2, 3, 4 or 5
  Judgement judgement = Judgement::Eval;
  std::vector<std::string> phi;                  // functions in scope
  std::shared_ptr<const DerivationEnvCell> env;  // rho (see judgement_rho)
  Term term;                                     // the subject M (Eval, Sym)
  BoolTerm bool_term;                            // the subject B (EvalBool)
  std::string value;                             // V (Eval, EvalBool)
  Term trace;                                    // C (Sym)
  std::string side;                              // side condition, if any
  std::string function;  // the call rule: the function called (for folding recursion)
  std::vector<Derivation> premises;

  // Judgements in the tree (this one and all premises).
  std::size_t size() const;
};

// rho restricted to the free variables of d's subject, outermost first: what a judgement shows.
std::vector<std::pair<std::string, std::string>> judgement_rho(const Derivation& d);

using DerivationEnv = std::vector<std::pair<Name, std::string>>;

// The derivation of phi | rho |- M => V from the record of one ordinary evaluation (the root
// event must be an Eval). `rho` gives the inputs' values; `names` supplies the variables of
// Fig. 3's context rule (they must be fresh for the program).
Derivation ordinary_derivation(const DerivationEvent& root, const DerivationEnv& rho,
                               NameSupply& names);

// The derivation of phi | rho |- M ~> C from the record of one symbolic evaluation (the root
// event must be a Sym).
Derivation symbolic_derivation(const DerivationEvent& root, const DerivationEnv& rho);

}  // namespace adlang
