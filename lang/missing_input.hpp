// The diagnostic for a free variable of a program that has no value (paper Sec. 2: a
// program's free variables are its inputs). A free variable is often a slip rather than an
// input: a function's name used as a value, or a misspelled variable; the diagnostic says so.
#pragma once

#include <string>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/syntax.hpp"

namespace adlang {

struct MissingInput {
  Diagnostic diagnostic;
  // The name is a function in scope where it is used: a type error (the type checker's
  // "function, not a value"), not a missing input.
  bool is_function = false;
};

// The diagnostic for the input `x` of `program` (one of program_inputs(program)) that has no
// value, at its first occurrence: "'sq' is a function, not a value" when a function of that
// name is in scope there; else "input 'x' has no value", with "did you mean" for a variable in
// scope there or an input in `valued` (the inputs that have values) near its name, and how the
// front end in use gives an input a value (support/setting_hint.hpp). `functions` are defined
// before the program and in scope in all of it (a session's checked definitions).
MissingInput missing_input(const SyntaxProgram& program, Name x,
                           const std::vector<std::string>& valued,
                           const std::vector<Name>& functions = {});

}  // namespace adlang
