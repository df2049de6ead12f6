// Python's print of a value the lowered program computed (docs/python.md, "What run prints"):
// the value's scalars laid out by the kind the inference gave it (python_kind.hpp): an int as
// its digits (75025), a float as Python's repr (2.0, 0.1, 1e+16, inf), a bool as True or
// False, tuples as (1, 2.0) and sess.run's lists as [1, 2.0].
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lang/python/lower/python_kind.hpp"

namespace adlang::py {

// One scalar of the value: its number and its shortest round-trip digits in the precision it
// was computed in ("2", "0.1", "1e+16", "inf": the layout of Python's repr without the ".0"
// Python adds to a whole float).
struct PrintedScalar {
  double value;
  std::string text;
};

// The text print(v) shows for the value of kind `kind` whose scalars, in order, are `scalars`
// (a tuple's left-nested pairs flatten in Python's order). None when the kind is not decided
// (a part of no value or of several kinds) or does not have that many scalars: the caller
// prints the value as the language prints it.
std::optional<std::string> print_python_value(const PythonKind& kind,
                                              const std::vector<PrintedScalar>& scalars);

}  // namespace adlang::py
