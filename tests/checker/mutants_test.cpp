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
#define ADLANG_DECLARE_R(NAME)                                                                  \
  Term reverse_deriv_mutant_##NAME(const Term& w, const Term& v, Name x, Type t, const Term& c, \
                                   NameSupply& names, std::uint64_t max_steps,                  \
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

// Every precision's evaluator of one kind replaced by the mutant's.
#define ADLANG_ALL_PRECISIONS(c, member, fn) \
  do {                                       \
    (c).impl.d.member = &fn<double>;         \
    (c).impl.m50.member = &fn<Mpfr50>;       \
    (c).impl.m100.member = &fn<Mpfr100>;     \
    (c).impl.q.member = &fn<Rational>;       \
  } while (false)

const std::vector<std::string> kMutants = {
    "r_let_summand",      "r_snd_zero",      "r_fst_paper_text", "symbolic_total",
    "denotational_total", "closure_dynamic", "den_jw",           "den_one_tag"};

// The checker's configuration with the named mutant in place of the production code.
CheckConfig mutant(const std::string& name) {
  CheckConfig c;
  if (name == "r_let_summand") c.impl.reverse_deriv = &reverse_deriv_mutant_r_let_summand;
  if (name == "r_snd_zero") c.impl.reverse_deriv = &reverse_deriv_mutant_r_snd_zero;
  if (name == "r_fst_paper_text") c.impl.reverse_deriv = &reverse_deriv_mutant_r_fst_paper_text;
  if (name == "symbolic_total")
    ADLANG_ALL_PRECISIONS(c, symbolic, symbolic_eval_mutant_symbolic_total);
  // Configuration, not code: the denotation's predicates differ from the other evaluators'.
  if (name == "denotational_total") c.den_predicates = PredicateMode::Total;
  if (name == "closure_dynamic")
    ADLANG_ALL_PRECISIONS(c, ordinary, ordinary_eval_mutant_closure_dynamic);
  if (name == "den_jw") ADLANG_ALL_PRECISIONS(c, denote, denote_mutant_den_jw);
  if (name == "den_one_tag") {
    ADLANG_ALL_PRECISIONS(c, denote, denote_mutant_den_one_tag);
    ADLANG_ALL_PRECISIONS(c, denote_forward, denote_forward_mutant_den_one_tag);
  }
  return c;
}

TEST(Mutants, RLetClauseMissingASummand) {
  expect_killed("r_let_summand", mutant("r_let_summand"));
}
TEST(Mutants, RSndClauseWithTheWrongZero) {
  expect_killed("r_snd_zero", mutant("r_snd_zero"));
}
TEST(Mutants, RFstClauseAsTheExtractedFigurePrintsIt) {
  expect_killed("r_fst_paper_text", mutant("r_fst_paper_text"));
}
TEST(Mutants, SymbolicEvaluationWithTotalPredicatesOnly) {
  expect_killed("symbolic_total", mutant("symbolic_total"));
}
TEST(Mutants, DenotationWithTotalPredicatesOnly) {
  expect_killed("denotational_total", mutant("denotational_total"));
}
TEST(Mutants, ClosureRunInTheCallersFunctionEnvironment) {
  expect_killed("closure_dynamic", mutant("closure_dynamic"));
}
TEST(Mutants, DenotationalRdUsingJTimesW) {
  expect_killed("den_jw", mutant("den_jw"));
}
TEST(Mutants, DenotationWithOneTagForAllLevels) {
  expect_killed("den_one_tag", mutant("den_one_tag"));
}

// The table of docs/checker.md: for every mutant and every property, the number of programs
// tried until the property first fails (within 2,000) and the size of its shrunk
// counterexample. Slow (a property that never fails runs all 2,000 programs); run it with
//   mutants_test --gtest_also_run_disabled_tests --gtest_filter=Mutants.DISABLED_KillTable
TEST(Mutants, DISABLED_KillTable) {
  std::printf("| mutant |");
  for (const PropertyInfo& p : all_properties())
    std::printf(" %s |", p.name);
  std::printf("\n|---|");
  for (std::size_t i = 0; i < all_properties().size(); ++i)
    std::printf("---|");
  std::printf("\n");
  for (const std::string& name : kMutants) {
    CheckConfig config = mutant(name);
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
