#include "semantics/value.hpp"

#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/parser.hpp"

namespace adlang {

namespace {

template <class S>
void print_into(Type t, const S*& data, std::string& out, bool flat_first) {
  switch (t.kind()) {
    case TypeKind::Real:
      out += ScalarTraits<S>::to_text(*data++);
      return;
    case TypeKind::Unit:
      out += '*';
      return;
    case TypeKind::Pair: {
      // ((a, b), c) prints as (a, b, c): a pair in first position joins its parent's list.
      if (!flat_first) out += '(';
      print_into(t.first(), data, out, t.first().is_pair());
      out += ", ";
      print_into(t.second(), data, out, false);
      if (!flat_first) out += ')';
      return;
    }
  }
}

template <class S>
void print_json_into(Type t, const S*& data, std::string& out) {
  switch (t.kind()) {
    case TypeKind::Real: {
      std::string s = ScalarTraits<S>::to_text(*data++);
      if (s.find('/') != std::string::npos)
        out += "\"" + s + "\"";
      else
        out += s;
      return;
    }
    case TypeKind::Unit:
      out += "null";
      return;
    case TypeKind::Pair:
      out += '[';
      print_json_into(t.first(), data, out);
      out += ", ";
      print_json_into(t.second(), data, out);
      out += ']';
      return;
  }
}

template <class S>
void read_value(const Syntax& s, ParsedValue<S>& out) {
  switch (s->kind) {
    case SyntaxKind::Number: {
      S x;
      LiteralProblem p = ScalarTraits<S>::from_literal(s->text, x);
      if (p != LiteralProblem::None) {
        throw ValueSyntaxError("the number " + s->text + " is outside the range of " +
                               std::string(to_string(ScalarTraits<S>::precision)) + " precision");
      }
      out.value.push_back(x);
      out.type = Type::real();
      return;
    }
    case SyntaxKind::Unit:
      out.type = Type::unit();
      return;
    case SyntaxKind::Tuple: {
      Type t;
      for (std::size_t i = 0; i < s->kids.size(); ++i) {
        read_value(s->kids[i], out);
        t = i == 0 ? out.type : Type::pair(t, out.type);
      }
      out.type = t;
      return;
    }
    case SyntaxKind::Var:
    case SyntaxKind::Binary:
    case SyntaxKind::Neg:
    case SyntaxKind::Call:
    case SyntaxKind::Fst:
    case SyntaxKind::Snd:
    case SyntaxKind::Let:
    case SyntaxKind::TupleLet:
    case SyntaxKind::LetFun:
    case SyntaxKind::LetRec:
    case SyntaxKind::If:
    case SyntaxKind::Rd:
    case SyntaxKind::Fd:
    case SyntaxKind::Grad:
    case SyntaxKind::Compare:
    case SyntaxKind::Bool:
    case SyntaxKind::Zero:
    case SyntaxKind::AddAt:
      break;
  }
  throw ValueSyntaxError(
      "not a value: a value is a number, * (unit) or a tuple of values such as (1, (2, *))");
}

}  // namespace

template <class S>
std::string print_value(Type t, const S* data) {
  std::string out;
  print_into(t, data, out, false);
  return out;
}

template <class S>
std::string print_value_json(Type t, const S* data) {
  std::string out;
  print_json_into(t, data, out);
  return out;
}

template <class S>
ParsedValue<S> parse_value(std::string_view text) {
  Syntax s;
  try {
    s = parse_term(text);
  } catch (const CompileError& e) {
    throw ValueSyntaxError("not a value: " + e.diagnostic().message);
  }
  ParsedValue<S> out;
  read_value(s, out);
  return out;
}

template std::string print_value<double>(Type, const double*);
template std::string print_value<Mpfr50>(Type, const Mpfr50*);
template std::string print_value<Mpfr100>(Type, const Mpfr100*);
template std::string print_value<Rational>(Type, const Rational*);
template std::string print_value_json<double>(Type, const double*);
template std::string print_value_json<Mpfr50>(Type, const Mpfr50*);
template std::string print_value_json<Mpfr100>(Type, const Mpfr100*);
template std::string print_value_json<Rational>(Type, const Rational*);
template ParsedValue<double> parse_value<double>(std::string_view);
template ParsedValue<Mpfr50> parse_value<Mpfr50>(std::string_view);
template ParsedValue<Mpfr100> parse_value<Mpfr100>(std::string_view);
template ParsedValue<Rational> parse_value<Rational>(std::string_view);

}  // namespace adlang
