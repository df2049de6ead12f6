#include "checker/program.hpp"

#include "lang/diagnostics.hpp"
#include "lang/free_vars.hpp"
#include "lang/printer.hpp"

namespace adlang::checker {

template <class S>
Value<S> input_value(const Input& in) {
  Value<S> v;
  for (const std::string& text : in.scalars) {
    S x;
    internal_check(ScalarTraits<S>::from_literal(text, x) == LiteralProblem::None,
                   "a generated input is not representable");
    v.push_back(x);
  }
  return v;
}

template <class S>
ValueEnv<S> value_env(const std::vector<Input>& inputs) {
  ValueEnv<S> rho;
  for (const Input& in : inputs)
    rho.push(in.name, input_value<S>(in));
  return rho;
}

template <class S>
DenEnv<S> den_env(const std::vector<Input>& inputs) {
  DenEnv<S> g;
  for (const Input& in : inputs)
    g.emplace_back(in.name, input_value<S>(in));
  return g;
}

namespace {

Term value_term_at(Type t, const std::vector<std::string>& s, std::size_t& i) {
  switch (t.kind()) {
    case TypeKind::Real:
      return mk::literal(s.at(i++));
    case TypeKind::Unit:
      return mk::unit();
    case TypeKind::Pair: {
      Term a = value_term_at(t.first(), s, i);
      Term b = value_term_at(t.second(), s, i);
      return mk::pair(a, b);
    }
  }
  throw InternalError("internal error: unknown type kind");
}

std::string value_text(Type t, const std::vector<std::string>& s, std::size_t& i) {
  switch (t.kind()) {
    case TypeKind::Real:
      return s.at(i++);
    case TypeKind::Unit:
      return "*";
    case TypeKind::Pair: {
      std::string a = value_text(t.first(), s, i);
      std::string b = value_text(t.second(), s, i);
      return "(" + a + ", " + b + ")";
    }
  }
  return "";
}

}  // namespace

Term value_term(Type t, const std::vector<std::string>& scalars) {
  std::size_t i = 0;
  return value_term_at(t, scalars, i);
}

std::string env_arguments(const std::vector<Input>& inputs) {
  std::string out;
  for (const Input& in : inputs) {
    std::size_t i = 0;
    out += (out.empty() ? "" : " ") + std::string("--env '") + in.name.str() + "=" +
           value_text(in.type, in.scalars, i) + "'";
  }
  return out;
}

std::string program_text(const Program& p) {
  std::string out;
  if (!p.inputs.empty()) {
    out += "-- inputs:";
    for (const Input& in : p.inputs)
      out += " " + in.name.str() + ": " + to_string(in.type) + ";";
    out += "\n-- adlang run FILE " + env_arguments(p.inputs) + "\n";
  }
  return out + print_program(p.term);
}

void reserve_program_names(const Program& p, NameSupply& names) {
  reserve_names(p.term, names);
  for (const Input& in : p.inputs)
    names.reserve(in.name);
}

#define ADLANG_INSTANTIATE(S)                                   \
  template Value<S> input_value<S>(const Input&);               \
  template ValueEnv<S> value_env<S>(const std::vector<Input>&); \
  template DenEnv<S> den_env<S>(const std::vector<Input>&);
ADLANG_INSTANTIATE(double)
ADLANG_INSTANTIATE(Mpfr50)
ADLANG_INSTANTIATE(Mpfr100)
ADLANG_INSTANTIATE(Rational)
#undef ADLANG_INSTANTIATE

}  // namespace adlang::checker
