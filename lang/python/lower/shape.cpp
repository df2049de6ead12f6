#include "lang/python/lower/shape.hpp"

#include "lang/diagnostics.hpp"

namespace adlang::py {

Shape Shape::tuple(std::vector<Shape> parts) {
  if (parts.empty()) return unit();
  if (parts.size() == 1) return parts[0];
  return Shape{Kind::Tuple, std::move(parts)};
}

Shape Shape::list(std::vector<Shape> parts) {
  internal_check(!parts.empty(), "Shape::list with no parts");
  return Shape{Kind::List, std::move(parts)};
}

namespace {

// (T0, ..., Tn) is T0 * ... * Tn, left-nested as the concrete syntax reads it.
Type product(const std::vector<Shape>& parts) {
  Type t = parts[0].type();
  for (std::size_t i = 1; i < parts.size(); ++i)
    t = Type::pair(t, parts[i].type());
  return t;
}

}  // namespace

Type Shape::type() const {
  switch (kind) {
    case Kind::Real:
    case Kind::Bool:
      return Type::real();
    case Kind::Unit:
      return Type::unit();
    case Kind::Tuple:
    case Kind::List:
      return product(parts);
  }
  throw InternalError("internal error: unknown shape");
}

std::string to_string(const Shape& s) {
  switch (s.kind) {
    case Shape::Kind::Real:
      return "real";
    case Shape::Kind::Bool:
      return "bool";
    case Shape::Kind::Unit:
      return "()";
    case Shape::Kind::Tuple:
    case Shape::Kind::List: {
      std::string r = s.kind == Shape::Kind::Tuple ? "(" : "[";
      for (std::size_t i = 0; i < s.parts.size(); ++i)
        r += (i ? ", " : "") + to_string(s.parts[i]);
      return r + (s.kind == Shape::Kind::Tuple ? ")" : "]");
    }
  }
  return "?";
}

}  // namespace adlang::py
