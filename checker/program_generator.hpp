// Random well-typed programs and trace terms (RapidCheck generators) for the property tests
// and `adlang check` (DESIGN.md Sec. 7).
//
// Programs are built directly in the core IR through the validating factories, so every
// generated term is well typed by construction. Names come from small pools so that shadowing
// happens; guards are sometimes exactly on a boundary (a comparison of a term with itself) so
// that strict predicates meet their undefined diagonal; recursion comes both as terminating
// countdowns and as arbitrary (often non-terminating) calls; rd nests inside rd. Generation is
// written with rc::gen::exec, whose picks shrink towards the first (simplest) alternative, so
// shrinking keeps programs well typed.
#pragma once

#include <rapidcheck.h>

#include <string>
#include <vector>

#include "lang/term.hpp"
#include "lang/vector_space.hpp"

namespace adlang::gen {

struct GenConfig {
  int max_depth = 4;       // term nesting depth (scaled down by RapidCheck's size)
  int max_rd_nesting = 2;  // rd inside rd
  int max_inputs = 3;      // free variables of a program
  bool conditionals = true;
  bool recursion = true;
  bool differentiation = true;
  bool polynomial_only = false;  // only + - * / neg add sub mul div dot_n scale_n
  unsigned max_vector = 3;       // largest n in real^n, dot_n, scale_n
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

// A random trace term (no if, letrec, call or rd) of type `t` whose free variables are among
// `vars`.
rc::Gen<Term> trace_term(Type t, std::vector<TypedName> vars, const GenConfig& cfg);

// A random closed value of type `t` in concrete syntax, with reals k/8 in [-3, 3].
rc::Gen<std::string> value_text(Type t);

}  // namespace adlang::gen
