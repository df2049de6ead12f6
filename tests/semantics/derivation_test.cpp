// Derivation trees (semantics/derivation.hpp) recorded from the evaluators: on random
// programs, the tree's conclusion is the evaluator's result, every rule has the premises its
// figure gives it, and recording changes no result.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "ad/reverse_deriv.hpp"
#include "checker/rapidcheck_generators.hpp"
#include "lang/alpha.hpp"
#include "lang/free_vars.hpp"
#include "semantics/derivation.hpp"
#include "semantics/derivation_recorder.hpp"
#include "semantics/ordinary_eval.hpp"
#include "semantics/symbolic_eval.hpp"
#include "support/stack.hpp"

namespace adlang {
namespace {

ValueEnv<double> env_of(const gen::GeneratedProgram& p) {
  ValueEnv<double> rho;
  for (std::size_t i = 0; i < p.inputs.size(); ++i)
    rho.push(p.inputs[i].name, parse_value<double>(p.input_values[i]).value);
  return rho;
}

DerivationEnv inputs_of(const gen::GeneratedProgram& p) {
  DerivationEnv env;
  for (std::size_t i = 0; i < p.inputs.size(); ++i) {
    Value<double> v = parse_value<double>(p.input_values[i]).value;
    env.emplace_back(p.inputs[i].name, print_value<double>(p.inputs[i].type, v));
  }
  return env;
}

EvalOptions budgets() {
  EvalOptions o;
  o.evaluator = Evaluator::Reference;
  o.fuel = 500;
  o.max_trace_nodes = 20000;
  o.max_derivative_steps = 20000;
  return o;
}

// The premises each rule has (Figs. 2-5), by judgement.
void check_shape(const Derivation& d) {
  std::size_t n = d.premises.size();
  const std::string& r = d.rule;
  if (r == "value" || r == "interpolation" ||
      (d.judgement == Judgement::Sym && (r == "+" || r == "op" || r == "fst" || r == "snd"))) {
    RC_ASSERT(n == 0u);
  } else if (r == "E[R]") {
    RC_ASSERT(n == (d.judgement == Judgement::Sym ? 3u : 2u));
    // The context variable is fresh for rho and free in E[x].
    Name x(r == "E[R]" ? d.side.substr(0, d.side.find(' ')) : "");
    for (const auto& [name, v] : judgement_rho(d))
      RC_ASSERT(name != x.str());
    RC_ASSERT(occurs_free(x, d.premises.back().term));
  } else if (r == "E[R_bool]" || r == "let" || r == "call" || r == "rd") {
    RC_ASSERT(n == 2u);
  } else {  // +, op, fst, snd, if true/false, letrec, pred (Fig. 2)
    RC_ASSERT(n == ((r == "+") ? 2u : 1u));
  }
  // The result of a rule whose last premise is a judgement of the same kind on the
  // continuation is that premise's result.
  if (d.judgement == Judgement::Eval &&
      (r == "E[R]" || r == "E[R_bool]" || r == "let" || r == "call" || r == "rd" ||
       r == "if true" || r == "if false" || r == "letrec")) {
    RC_ASSERT(d.premises.back().value == d.value);
  }
  for (const Derivation& p : d.premises)
    check_shape(p);
}

RC_GTEST_PROP(Derivation, OrdinaryDerivationConcludesWithTheEvaluatorsValue, ()) {
  gen::GeneratedProgram p = *gen::program(gen::GenConfig{});
  NameSupply names;
  reserve_names(p.term, names);
  std::optional<std::string> plain, recorded;
  std::optional<Derivation> d;
  run_on_large_stack([&] {
    try {
      ValueEnv<double> rho = env_of(p);
      EvalContext cx(budgets(), names);
      plain = print_value<double>(p.term.type(), ordinary_eval(p.term, rho, nullptr, cx));
    } catch (const Undefined&) {
    }
    try {
      ValueEnv<double> rho = env_of(p);
      EvalContext cx(budgets(), names);
      DerivationRecorder rec;
      cx.recorder = &rec;
      recorded = print_value<double>(p.term.type(), ordinary_eval(p.term, rho, nullptr, cx));
      d = ordinary_derivation(rec.root(), inputs_of(p), names);
    } catch (const Undefined&) {
    }
  });
  RC_ASSERT(plain == recorded);
  RC_PRE(d.has_value());
  RC_ASSERT(d->value == *plain);
  run_on_large_stack([&] { check_shape(*d); });
}

RC_GTEST_PROP(Derivation, SymbolicDerivationConcludesWithTheTrace, ()) {
  gen::GeneratedProgram p = *gen::program(gen::GenConfig{});
  NameSupply names;
  reserve_names(p.term, names);
  std::optional<Term> trace;
  std::optional<Derivation> d;
  run_on_large_stack([&] {
    try {
      ValueEnv<double> rho = env_of(p);
      EvalContext cx(budgets(), names);
      DerivationRecorder rec;
      cx.recorder = &rec;
      trace = symbolic_eval(p.term, rho, nullptr, cx).trace;
      d = symbolic_derivation(rec.root(), inputs_of(p));
    } catch (const Undefined&) {
    }
  });
  RC_PRE(d.has_value());
  RC_ASSERT(alpha_equivalent(d->trace, *trace));
  run_on_large_stack([&] { check_shape(*d); });
}

}  // namespace
}  // namespace adlang
