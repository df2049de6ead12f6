// The program generator (checker/program_generator.hpp) with RapidCheck's picks as its random
// choices, for the test suite: each pick shrinks towards 0, the simplest alternative, so a
// failing property's counterexample shrinks and stays well typed. `adlang check` draws the
// same generator's choices from a seeded Rng instead, and needs no RapidCheck (so the
// playground's WebAssembly build has the checker without it).
#pragma once

#include <rapidcheck.h>

#include <ostream>
#include <string>
#include <vector>

#include "checker/program_generator.hpp"

namespace adlang::gen {

struct GenConfig {
  int max_depth = 4;       // scales the size budget (with RapidCheck's size)
  int max_rd_nesting = 2;  // rd inside rd
  int max_inputs = 3;      // free variables of a program
  bool conditionals = true;
  bool recursion = true;
  bool differentiation = true;
  bool polynomial_only = false;  // only + - * / neg add sub mul div dot_n scale_n
};

// A closed program with its inputs: `term` has free variables exactly `inputs`, whose values
// (concrete syntax, exact decimals) are in `input_values`.
struct GeneratedProgram {
  Term term;
  std::vector<TypedName> inputs;
  std::vector<std::string> input_values;
};

// Shows a generated program (RapidCheck prints counterexamples with this): its inputs and
// its text in the concrete syntax.
void showValue(const GeneratedProgram& p, std::ostream& os);

// A random small type (real, unit, products, real^n).
rc::Gen<Type> type(const GenConfig& cfg);
// A random program of a random type.
rc::Gen<GeneratedProgram> program(const GenConfig& cfg);
// A random program of type `t`.
rc::Gen<GeneratedProgram> program_of_type(Type t, const GenConfig& cfg);
// A random trace term of type `t` whose free variables are among `vars`.
rc::Gen<Term> trace_term(Type t, std::vector<TypedName> vars, const GenConfig& cfg);
// A random closed value of type `t` in concrete syntax.
rc::Gen<std::string> value_text(Type t);

}  // namespace adlang::gen
