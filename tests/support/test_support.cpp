#include "support/test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lang/parser.hpp"
#include "lang/printer.hpp"
#include "lang/type_checker.hpp"
#include "semantics/ordinary_eval.hpp"
#include "semantics/symbolic_eval.hpp"
#include "semantics/undefined.hpp"
#include "semantics/value.hpp"
#include "support/stack.hpp"

namespace adlang::test {

namespace {

// The test suite runs with the IR verified after every pass (lang/verifier.hpp,
// ir_verification_on), in this process and in the adlang processes it starts; set before main,
// before anything reads it. ADLANG_VERIFY=0 in the environment turns it off.
[[maybe_unused]] const bool kVerifyIr = setenv("ADLANG_VERIFY", "1", /*overwrite=*/0) == 0;

}  // namespace

std::string source_dir() {
  return ADLANG_SOURCE_DIR;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void expect_golden(const std::string& name, const std::string& actual) {
  std::string path = source_dir() + "/tests/golden/" + name;
  const char* update = std::getenv("ADLANG_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << "missing golden file " << path
                         << " (run with ADLANG_UPDATE_GOLDEN=1 to create it)";
  EXPECT_EQ(read_file(path), actual) << "golden file " << path << " differs";
}

namespace {

template <class S>
ValueEnv<S> make_env(const Env& env) {
  ValueEnv<S> rho;
  for (const auto& [name, text] : env)
    rho.push(Name(name), parse_value<S>(text).value);
  return rho;
}

}  // namespace

Checked check(const std::string& program, const Env& env) {
  Checked c;
  SyntaxProgram p = parse_program(program);
  for (const Name& n : p.identifiers)
    c.names.reserve(n);
  std::vector<TypedName> inputs;
  for (const auto& [name, text] : env)
    inputs.push_back(TypedName{Name(name), parse_value<double>(text).type});
  c.term = check_program(p, inputs, c.names);
  return c;
}

template <class S>
std::string run(const std::string& program, const Env& env, EvalOptions options) {
  Checked c = check(program, env);
  std::string result;
  run_on_large_stack([&] {
    ValueEnv<S> rho = make_env<S>(env);
    EvalContext cx(options, c.names);
    try {
      Value<S> v = ordinary_eval(c.term, rho, nullptr, cx);
      result = print_value<S>(c.term.type(), v);
    } catch (const Undefined& e) {
      result = std::string("undefined: ") + e.what();
    }
  });
  return result;
}

template std::string run<double>(const std::string&, const Env&, EvalOptions);
template std::string run<Mpfr50>(const std::string&, const Env&, EvalOptions);
template std::string run<Mpfr100>(const std::string&, const Env&, EvalOptions);
template std::string run<Rational>(const std::string&, const Env&, EvalOptions);

std::string trace(const std::string& program, const Env& env, EvalOptions options) {
  Checked c = check(program, env);
  std::string result;
  run_on_large_stack([&] {
    ValueEnv<double> rho = make_env<double>(env);
    EvalContext cx(options, c.names);
    try {
      result = print_term(symbolic_eval(c.term, rho, nullptr, cx).trace);
    } catch (const Undefined& e) {
      result = std::string("undefined: ") + e.what();
    }
  });
  return result;
}

Term real_var(const char* n) {
  return mk::var(Name(n), Type::real());
}

std::string run_term(const Term& t, NameSupply& names, const Env& env, EvalOptions options) {
  ValueEnv<double> rho = make_env<double>(env);
  EvalContext cx(options, names);
  try {
    return print_value<double>(t.type(), ordinary_eval(t, rho, nullptr, cx));
  } catch (const Undefined& e) {
    return std::string("undefined: ") + e.what();
  }
}

Derivative derivative(ReverseDerivFn r, const std::string& w, const std::string& v,
                      const std::string& t, const std::string& c) {
  Type tt = parse_type(t);
  NameSupply names;
  std::vector<TypedName> gamma = {{Name("x"), tt}, {Name("y"), Type::real()}};
  SyntaxProgram cp = parse_program(c);
  for (const Name& n : cp.identifiers)
    names.reserve(n);
  Term ct = check_program(cp, gamma, names);
  std::vector<TypedName> outer = {{Name("y"), Type::real()}};
  Term wt = check_term(parse_term(w), outer, names);
  Term vt = check_term(parse_term(v), outer, names);
  Term d = r(wt, vt, Name("x"), tt, ct, names, UINT64_MAX, nullptr);
  return {print_term(d), run_term(d, names, {{"y", "3"}})};
}

}  // namespace adlang::test
