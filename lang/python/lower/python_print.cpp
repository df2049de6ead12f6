#include "lang/python/lower/python_print.hpp"

#include <cmath>
#include <cstdio>

namespace adlang::py {

namespace {

bool is_integer_text(const std::string& t) {
  if (t.empty()) return false;
  for (std::size_t i = t[0] == '-' ? 1 : 0; i < t.size(); ++i)
    if (t[i] < '0' || t[i] > '9') return false;
  return t != "-";
}

// repr(float): the shortest digits, with ".0" on a whole number (2.0, 1000000000000000.0;
// 1e+16, inf and nan as they are).
std::string float_repr(const PrintedScalar& x) {
  return is_integer_text(x.text) ? x.text + ".0" : x.text;
}

// str(int): all the digits. A whole double is printed exactly (2**60 is 1152921504606846976),
// also beyond 2^53, where Python's exact int may differ from the double the program computed.
std::string int_str(const PrintedScalar& x) {
  if (is_integer_text(x.text)) return x.text;
  if (std::isfinite(x.value) && x.value == std::floor(x.value)) {
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.0f", x.value);
    return buf;
  }
  // Not a whole number (an int input given a fraction by --env): what it is, as a float.
  return float_repr(x);
}

bool print_into(const PythonKind& k, const std::vector<PrintedScalar>& scalars, std::size_t& next,
                std::string& out) {
  switch (k.tag) {
    case PythonKind::Tag::Scalar: {
      if (next == scalars.size()) return false;
      const PrintedScalar& x = scalars[next++];
      if (k.scalars == PythonKind::Bool)
        out += x.value != 0 ? "True" : "False";
      else if (k.scalars == PythonKind::Int)
        out += int_str(x);
      else if (k.scalars == PythonKind::Float)
        out += float_repr(x);
      else
        return false;
      return true;
    }
    case PythonKind::Tag::Tuple:
    case PythonKind::Tag::List: {
      bool tuple = k.tag == PythonKind::Tag::Tuple;
      out += tuple ? "(" : "[";
      for (std::size_t i = 0; i < k.parts.size(); ++i) {
        if (i) out += ", ";
        if (!print_into(k.parts[i], scalars, next, out)) return false;
      }
      if (tuple && k.parts.size() == 1) out += ",";
      out += tuple ? ")" : "]";
      return true;
    }
    case PythonKind::Tag::None:
    case PythonKind::Tag::Unknown:
      break;
  }
  return false;
}

}  // namespace

std::optional<std::string> print_python_value(const PythonKind& kind,
                                              const std::vector<PrintedScalar>& scalars) {
  std::string out;
  std::size_t next = 0;
  if (!print_into(kind, scalars, next, out) || next != scalars.size()) return std::nullopt;
  return out;
}

}  // namespace adlang::py
