#include "lang/layout.hpp"

namespace adlang::layout {

std::string indent(std::string_view s, int n) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    out += c;
    if (c == '\n') out.append(static_cast<std::size_t>(n), ' ');
  }
  return out;
}

std::string at_level(const Doc& d, int ctx) {
  if (d.level >= ctx) return d.text;
  std::string out(1, '(');
  out += indent(d.text, 1);
  out += ')';
  return out;
}

std::string let_layout(std::string_view keyword, std::string_view head, std::string_view bound,
                       std::string_view body) {
  std::string out(keyword);
  out += ' ';
  out += head;
  if (multiline(bound)) {
    out += " =\n  ";
    out += indent(bound, 2);
    out += "\nin\n";
  } else {
    out += " = ";
    out += bound;
    out += " in\n";
  }
  out += body;
  return out;
}

std::string if_layout(std::string_view guard, std::string_view then_text,
                      std::string_view else_text) {
  std::string out = "if ";
  out += guard;
  if (multiline(then_text) || multiline(else_text)) {
    out += " then\n  ";
    out += indent(then_text, 2);
    out += "\nelse\n  ";
    out += indent(else_text, 2);
  } else {
    out += " then ";
    out += then_text;
    out += " else ";
    out += else_text;
  }
  return out;
}

std::string neg_operand(const Doc& d) {
  std::string s = at_level(d, kPrefix);
  if (s.empty() || s[0] != '-') return s;
  std::string out(1, '(');
  out += s;
  out += ')';
  return out;
}

}  // namespace adlang::layout
