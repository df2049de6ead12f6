// The shapes of the Python values the lowering can express (docs/python.md): reals (Python's
// int and float, TensorFlow's int32 and float32 scalars), booleans held as the reals 1 and 0,
// None as unit, tuples, and the one-level lists `tf.gradients` returns. Every shape has the
// type of the language that holds it.
#pragma once

#include <string>
#include <vector>

#include "lang/type.hpp"

namespace adlang::py {

struct Shape {
  enum class Kind {
    Real,   // int, float: real
    Bool,   // True/False, comparisons: the real 1 or 0
    Unit,   // () : unit
    Tuple,  // (a, b, ...) with >= 2 parts: the left-nested product
    List,   // [g1, ..., gn], n >= 1, as tf.gradients returns: g1 alone or the tuple
  };
  Kind kind = Kind::Real;
  std::vector<Shape> parts;  // Tuple, List

  static Shape real() { return Shape{}; }
  static Shape boolean() { return Shape{Kind::Bool, {}}; }
  static Shape unit() { return Shape{Kind::Unit, {}}; }
  static Shape tuple(std::vector<Shape> parts);  // 0 parts: unit, 1 part: that part
  static Shape list(std::vector<Shape> parts);

  bool is_scalar() const { return kind == Kind::Real || kind == Kind::Bool; }
  Type type() const;
  bool operator==(const Shape&) const = default;
};

// For messages: "real", "bool", "(real, real)", "[real]".
std::string to_string(const Shape& s);

}  // namespace adlang::py
