// The kind of a Python value as print shows it (docs/python.md, "What run prints"): int, float,
// bool, tuples, and the lists sess.run returns. The lowering holds ints, floats and bools alike
// as reals, so the kind of the program's printed value is inferred statically from the script,
// by Python 3's rules (and TensorFlow's dtypes), for `adlang run prog.py` to print what
// `python3 prog.py` prints.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/python/ast/py_ast.hpp"

namespace adlang::py {

struct PythonKind {
  // The scalar types a value may have at run time: one bit, a decided kind; several, a value
  // whose type depends on the path that computed it.
  enum Scalar : unsigned { Int = 1, Float = 2, Bool = 4 };
  enum class Tag {
    None,     // no value reaches here (a path that does not return, a recursion's start)
    Scalar,   // `scalars` says which
    Tuple,    // a Python tuple of `parts` (flat: (a, b, c) has three parts)
    List,     // the list sess.run([A, B]) or tf.gradients returns
    Unknown,  // values of different shapes, or what the inference does not follow
  };
  Tag tag = Tag::None;
  unsigned scalars = 0;
  std::vector<PythonKind> parts;

  static PythonKind none() { return {}; }
  static PythonKind scalar(unsigned s) { return {Tag::Scalar, s, {}}; }
  static PythonKind unknown() { return {Tag::Unknown, 0, {}}; }
  static PythonKind tuple(std::vector<PythonKind> parts) { return {Tag::Tuple, 0, parts}; }
  static PythonKind list(std::vector<PythonKind> parts) { return {Tag::List, 0, parts}; }
  bool operator==(const PythonKind&) const = default;
};

// The least kind above both: a value that is `a` on one path and `b` on another.
PythonKind join(const PythonKind& a, const PythonKind& b);

// For messages: "int", "int or float", "(int, float)", "[float]", "unknown".
std::string to_string(const PythonKind& k);

// The kind of the program's printed value, and, when some part of it is not decided (an int on
// one path and a float on another), the refusal `adlang run` reports instead of guessing.
struct PrintedKind {
  PythonKind kind;
  std::optional<Diagnostic> undecided;
};

// Infers the kind of the program's term (the module's last statement, E or print(E)) of a
// module the lowering accepted. `qualify` resolves a dotted name through the module's imports
// ("math.sin", "tensorflow.add").
PrintedKind infer_printed_kind(
    const Node& module, const std::function<std::optional<std::string>(const Node&)>& qualify);

}  // namespace adlang::py
