// The checker has teeth: each deliberately broken variant of an evaluator, of R or of the
// denotation (built from the production sources with one change, tests/checker/CMakeLists.txt)
// must be caught by `check` within 2,000 random programs at the default size, and the
// counterexample must shrink to a small program (at most 15 nodes). docs/checker.md reports
// the kill rate measured by this test.
#include <gtest/gtest.h>

#include <cstdio>

#include "checker/runner.hpp"
#include "checker/term_edit.hpp"
#include "lang/printer.hpp"

namespace adlang {

// The mutants' renamed entry points.
#define ADLANG_DECLARE_R(NAME)                                                              \
  Term reverse_deriv_mutant_##NAME(const Term& w, const Term& v, Name x, Type t,          \
                                   const Term& c, NameSupply& names, std::uint64_t max_steps, \
                                   ReverseDerivStats* stats);
ADLANG_DECLARE_R(r_let_summand)
ADLANG_DECLARE_R(r_snd_zero)
ADLANG_DECLARE_R(r_fst_paper_text)
template <class S>
Traced<S> symbolic_eval_mutant_symbolic_total(const Term&, ValueEnv<S>&, const FunFrame*,
                                              EvalContext&);
template <class S>
Value<S> ordinary_eval_mutant_closure_dynamic(const Term&, ValueEnv<S>&, const FunFrame*,
                                              EvalContext&);
template <class S>
Value<S> denote_mutant_den_jw(const Term&, const DenEnv<S>&, const DenotationOptions&,
                              DenotationStats*);
template <class S>
Value<S> denote_mutant_den_one_tag(const Term&, const DenEnv<S>&, const DenotationOptions&,
                                   DenotationStats*);
template <class S>
Value<S> denote_forward_mutant_den_one_tag(const Term&, Name, const Value<S>&, const Value<S>&,
                                           const DenEnv<S>&, const DenotationOptions&,
                                           DenotationStats*);

namespace {

using checker::CheckConfig;

struct Kill {
  std::string property;
  std::uint64_t programs = 0;  // programs until the first failure
  std::size_t nodes = 0;       // of the shrunk counterexample
};

// Runs the properties (each stopping at its first failure) on up to 2,000 programs each, until
// one yields a counterexample that shrinks to at most 15 nodes. Reports the earliest catch
// (programs tried before the first failure, over the properties run) and the smallest shrunk
// counterexample.
Kill hunt(const std::string& mutant, const CheckConfig& config) {
  checker::RunOptions o;
  o.count = 2000;
  o.seed = 1;
  o.stop_after_first_failure = true;
  o.max_shrink_candidates = 2000;
  Kill best;
  best.programs = UINT64_MAX;
  best.nodes = SIZE_MAX;
  for (const PropertyInfo& p : all_properties()) {
    o.properties = {p.name};
    // A later failing program may shrink further (the first one may be stuck at a large
    // type, such as real^3 values): look at up to three failures per property.
    o.shard_index = 0;
    for (int tries = 0; tries < 3 && o.shard_index < o.count && best.nodes > 15; ++tries) {
      checker::RunReport r = checker::run_checks(o, config);
      if (r.counterexamples.empty()) break;
      const checker::Counterexample& c = r.counterexamples.front();
      std::size_t nodes = checker::node_count(c.shrunk.term);
      std::printf("[%s] caught by %s at program %llu; shrunk to %zu nodes:\n%s\n%s\n\n",
                  mutant.c_str(), p.name, static_cast<unsigned long long>(c.index), nodes,
                  checker::program_text(c.shrunk).c_str(), c.detail.c_str());
      if (c.index + 1 < best.programs) {
        best.programs = c.index + 1;
        best.property = p.name;
      }
      best.nodes = std::min(best.nodes, nodes);
      o.shard_index = static_cast<unsigned>(c.index + 1);  // continue after it
    }
    if (best.nodes <= 15) break;
  }
  return best;
}

void expect_killed(const std::string& mutant, const CheckConfig& config) {
  Kill k = hunt(mutant, config);
  ASSERT_NE(k.programs, UINT64_MAX) << mutant << " survived 2,000 programs of every property";
  EXPECT_LE(k.programs, 2000u);
  EXPECT_LE(k.nodes, 15u) << mutant << ": counterexample not small";
  std::printf("KILL %s %s %llu %zu\n", mutant.c_str(), k.property.c_str(),
              static_cast<unsigned long long>(k.programs), k.nodes);
}

TEST(Mutants, RLetClauseMissingASummand) {
  CheckConfig c;
  c.impl.reverse_deriv = &reverse_deriv_mutant_r_let_summand;
  expect_killed("r_let_summand", c);
}

TEST(Mutants, RSndClauseWithTheWrongZero) {
  CheckConfig c;
  c.impl.reverse_deriv = &reverse_deriv_mutant_r_snd_zero;
  expect_killed("r_snd_zero", c);
}

TEST(Mutants, RFstClauseAsTheExtractedFigurePrintsIt) {
  CheckConfig c;
  c.impl.reverse_deriv = &reverse_deriv_mutant_r_fst_paper_text;
  expect_killed("r_fst_paper_text", c);
}

TEST(Mutants, SymbolicEvaluationWithTotalPredicatesOnly) {
  CheckConfig c;
  c.impl.d.symbolic = &symbolic_eval_mutant_symbolic_total<double>;
  c.impl.m50.symbolic = &symbolic_eval_mutant_symbolic_total<Mpfr50>;
  c.impl.m100.symbolic = &symbolic_eval_mutant_symbolic_total<Mpfr100>;
  c.impl.q.symbolic = &symbolic_eval_mutant_symbolic_total<Rational>;
  expect_killed("symbolic_total", c);
}

TEST(Mutants, DenotationWithTotalPredicatesOnly) {
  CheckConfig c;
  c.den_predicates = PredicateMode::Total;
  expect_killed("denotational_total", c);
}

TEST(Mutants, ClosureRunInTheCallersFunctionEnvironment) {
  CheckConfig c;
  c.impl.d.ordinary = &ordinary_eval_mutant_closure_dynamic<double>;
  c.impl.m50.ordinary = &ordinary_eval_mutant_closure_dynamic<Mpfr50>;
  c.impl.m100.ordinary = &ordinary_eval_mutant_closure_dynamic<Mpfr100>;
  c.impl.q.ordinary = &ordinary_eval_mutant_closure_dynamic<Rational>;
  expect_killed("closure_dynamic", c);
}

TEST(Mutants, DenotationalRdUsingJTimesW) {
  CheckConfig c;
  c.impl.d.denote = &denote_mutant_den_jw<double>;
  c.impl.m50.denote = &denote_mutant_den_jw<Mpfr50>;
  c.impl.m100.denote = &denote_mutant_den_jw<Mpfr100>;
  c.impl.q.denote = &denote_mutant_den_jw<Rational>;
  expect_killed("den_jw", c);
}

TEST(Mutants, DenotationWithOneTagForAllLevels) {
  CheckConfig c;
  c.impl.d.denote = &denote_mutant_den_one_tag<double>;
  c.impl.m50.denote = &denote_mutant_den_one_tag<Mpfr50>;
  c.impl.m100.denote = &denote_mutant_den_one_tag<Mpfr100>;
  c.impl.q.denote = &denote_mutant_den_one_tag<Rational>;
  c.impl.d.denote_forward = &denote_forward_mutant_den_one_tag<double>;
  c.impl.m50.denote_forward = &denote_forward_mutant_den_one_tag<Mpfr50>;
  c.impl.m100.denote_forward = &denote_forward_mutant_den_one_tag<Mpfr100>;
  c.impl.q.denote_forward = &denote_forward_mutant_den_one_tag<Rational>;
  expect_killed("den_one_tag", c);
}

// The table of docs/checker.md: for every mutant and every property, the program at which the
// property first fails (within 2,000) and the size of its shrunk counterexample. Slow (every
// property runs to 2,000 programs when it does not fail); run it by hand with
//   mutants_test --gtest_also_run_disabled_tests --gtest_filter=*KillTable*
TEST(Mutants, DISABLED_KillTable) {
  std::vector<std::pair<std::string, CheckConfig>> mutants;
  auto r_mutant = [&](const char* name, ReverseDerivFn f) {
    CheckConfig c;
    c.impl.reverse_deriv = f;
    mutants.emplace_back(name, c);
  };
  r_mutant("r_let_summand", &reverse_deriv_mutant_r_let_summand);
  r_mutant("r_snd_zero", &reverse_deriv_mutant_r_snd_zero);
  r_mutant("r_fst_paper_text", &reverse_deriv_mutant_r_fst_paper_text);
  {
    CheckConfig c;
    c.impl.d.symbolic = &symbolic_eval_mutant_symbolic_total<double>;
    c.impl.m50.symbolic = &symbolic_eval_mutant_symbolic_total<Mpfr50>;
    c.impl.m100.symbolic = &symbolic_eval_mutant_symbolic_total<Mpfr100>;
    c.impl.q.symbolic = &symbolic_eval_mutant_symbolic_total<Rational>;
    mutants.emplace_back("symbolic_total", c);
  }
  {
    CheckConfig c;
    c.den_predicates = PredicateMode::Total;
    mutants.emplace_back("denotational_total", c);
  }
  {
    CheckConfig c;
    c.impl.d.ordinary = &ordinary_eval_mutant_closure_dynamic<double>;
    c.impl.m50.ordinary = &ordinary_eval_mutant_closure_dynamic<Mpfr50>;
    c.impl.m100.ordinary = &ordinary_eval_mutant_closure_dynamic<Mpfr100>;
    c.impl.q.ordinary = &ordinary_eval_mutant_closure_dynamic<Rational>;
    mutants.emplace_back("closure_dynamic", c);
  }
  {
    CheckConfig c;
    c.impl.d.denote = &denote_mutant_den_jw<double>;
    c.impl.m50.denote = &denote_mutant_den_jw<Mpfr50>;
    c.impl.m100.denote = &denote_mutant_den_jw<Mpfr100>;
    c.impl.q.denote = &denote_mutant_den_jw<Rational>;
    mutants.emplace_back("den_jw", c);
  }
  {
    CheckConfig c;
    c.impl.d.denote = &denote_mutant_den_one_tag<double>;
    c.impl.m50.denote = &denote_mutant_den_one_tag<Mpfr50>;
    c.impl.m100.denote = &denote_mutant_den_one_tag<Mpfr100>;
    c.impl.q.denote = &denote_mutant_den_one_tag<Rational>;
    c.impl.d.denote_forward = &denote_forward_mutant_den_one_tag<double>;
    c.impl.m50.denote_forward = &denote_forward_mutant_den_one_tag<Mpfr50>;
    c.impl.m100.denote_forward = &denote_forward_mutant_den_one_tag<Mpfr100>;
    c.impl.q.denote_forward = &denote_forward_mutant_den_one_tag<Rational>;
    mutants.emplace_back("den_one_tag", c);
  }
  std::printf("| mutant |");
  for (const PropertyInfo& p : all_properties())
    std::printf(" %s |", p.name);
  std::printf("\n|---|");
  for (std::size_t i = 0; i < all_properties().size(); ++i)
    std::printf("---|");
  std::printf("\n");
  for (const auto& [name, config] : mutants) {
    std::printf("| %s |", name.c_str());
    for (const PropertyInfo& p : all_properties()) {
      checker::RunOptions o;
      o.count = 2000;
      o.seed = 1;
      o.stop_after_first_failure = true;
      o.properties = {p.name};
      checker::RunReport r = checker::run_checks(o, config);
      if (r.counterexamples.empty()) {
        std::printf(" - |");
      } else {
        const checker::Counterexample& c = r.counterexamples.front();
        std::printf(" %llu (%zu) |", static_cast<unsigned long long>(c.index + 1),
                    checker::node_count(c.shrunk.term));
      }
      std::fflush(stdout);
    }
    std::printf("\n");
  }
}

}  // namespace
}  // namespace adlang
