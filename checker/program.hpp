// A generated test program: a term M with free variables (its inputs) and their values, the
// rho of the paper's judgements. Values are kept as decimal texts so that every precision
// reads them exactly as written (0.1 is 1/10 in exact mode, the nearest double in double).
#pragma once

#include <string>
#include <vector>

#include "lang/name.hpp"
#include "lang/term.hpp"
#include "semantics/denotational_eval.hpp"
#include "semantics/environment.hpp"
#include "semantics/value.hpp"

namespace adlang::checker {

struct Input {
  Name name;
  Type type;
  std::vector<std::string> scalars;  // |type| decimal literals
};

struct Program {
  Term term;                  // Phi | Gamma |- M : T with Phi empty
  std::vector<Input> inputs;  // Gamma and rho, in order
};

// The value of an input in precision S (the texts are valid literals of every precision).
template <class S>
Value<S> input_value(const Input& in);

// rho for the operational evaluators / gamma for the denotational one.
template <class S>
ValueEnv<S> value_env(const std::vector<Input>& inputs);
template <class S>
DenEnv<S> den_env(const std::vector<Input>& inputs);

// A closed value as a term (literals, *, pairs) of type t, from decimal texts.
Term value_term(Type t, const std::vector<std::string>& scalars);

// The program as a runnable .ad text: a comment with the command line (the --env inputs),
// then the term in concrete syntax (parse . print = identity up to alpha).
std::string program_text(const Program& p);
// The `--env NAME=VALUE` arguments of the inputs.
std::string env_arguments(const std::vector<Input>& inputs);

// Reserves every name of the program in `names` (for fresh names in R and the evaluators).
void reserve_program_names(const Program& p, NameSupply& names);

}  // namespace adlang::checker
