// Helpers shared by the test suites: type-checked programs from text, evaluation to printed
// results, and golden files (tests/golden/; set ADLANG_UPDATE_GOLDEN=1 to rewrite them).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "lang/name.hpp"
#include "lang/term.hpp"
#include "semantics/eval_context.hpp"

namespace adlang::test {

using Env = std::vector<std::pair<std::string, std::string>>;  // name, value text

std::string source_dir();
std::string read_file(const std::string& path);

// Compares `actual` with tests/golden/<name> (or writes it when ADLANG_UPDATE_GOLDEN=1).
void expect_golden(const std::string& name, const std::string& actual);

struct Checked {
  Term term;
  NameSupply names;
};

// Parses and type-checks `program`, its inputs typed by the values in `env` (read as doubles).
// Throws CompileError like the CLI would.
Checked check(const std::string& program, const Env& env = {});

// Evaluates `program` (ordinary evaluation) in precision S: the printed value, or
// "undefined: <reason>" (the Undefined message) when it has none.
template <class S>
std::string run(const std::string& program, const Env& env = {}, EvalOptions options = {});

// The printed trace of `program` (symbolic evaluation), or "undefined: <reason>".
std::string trace(const std::string& program, const Env& env = {}, EvalOptions options = {});

// The variable `n` of type real.
Term real_var(const char* n);

// Evaluates an already checked term in double precision with the inputs of `env`.
std::string run_term(const Term& t, NameSupply& names, const Env& env, EvalOptions options = {});

// W.R_V(x:T. C) by the given R, for C given as text with free x : T (and y : real), W and V as
// text over y: the printed output and its value at y = 3.
struct Derivative {
  std::string text;
  std::string value;
};
Derivative derivative(ReverseDerivFn r, const std::string& w, const std::string& v,
                      const std::string& t, const std::string& c);

}  // namespace adlang::test
