// Core-IR programs printed as plain Python (for the round-trip property of the Python front
// end): lets become assignments, `if` an if statement assigning one result variable, pairs
// tuples, operators math.* calls and infix arithmetic, and every letrec function a top-level
// def that takes, besides its parameter, every variable in scope where it is defined (lambda
// lifting; names are made unique so Python's function-wide scopes cannot mix bindings).
// Differentiation (rd) has no plain-Python form and is refused.
#pragma once

#include <string>
#include <vector>

#include "lang/term.hpp"
#include "lang/vector_space.hpp"

namespace adlang::test {

struct PythonProgram {
  std::string text;
  std::vector<std::string> input_names;  // the Python name of each input, in order
};

// `term` with free variables `inputs`, as a Python module whose last statement prints it.
PythonProgram print_python(const Term& term, const std::vector<TypedName>& inputs);

}  // namespace adlang::test
