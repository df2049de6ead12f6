// The checker has teeth: each deliberately broken variant of an evaluator, of R or of the
// denotation (built from the production sources with one change, tests/checker/CMakeLists.txt)
// must be caught by `check` within 2,000 random programs at the default size, and the
// counterexample must shrink to a small program (at most 15 nodes). docs/checker.md reports
// the kill rate; tests/checker/kill_table.cpp prints the full table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "checker/graph_agrees.hpp"
#include "checker/runner.hpp"
#include "checker/term_edit.hpp"
#include "lang/diagnostics.hpp"
#include "lang/printer.hpp"
#include "mutants.hpp"
#include "support/test_support.hpp"

namespace adlang {

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
Kill hunt(const std::string& mutant, const CheckConfig& config,
          const std::vector<std::string>& only = {}) {
  checker::RunOptions o;
  o.count = 2000;
  o.seed = 1;
  o.stop_after_first_failure = true;
  o.max_shrink_candidates = 2000;
  Kill best;
  best.programs = UINT64_MAX;
  best.nodes = SIZE_MAX;
  for (const PropertyInfo& p : all_properties()) {
    if (!only.empty() && std::find(only.begin(), only.end(), p.name) == only.end()) continue;
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

void expect_killed(const std::string& mutant, const CheckConfig& config, std::size_t max_nodes = 15,
                   const std::vector<std::string>& only = {}) {
  Kill k = hunt(mutant, config, only);
  ASSERT_NE(k.programs, UINT64_MAX) << mutant << " survived 2,000 programs of every property";
  EXPECT_LE(k.programs, 2000u);
  EXPECT_LE(k.nodes, max_nodes) << mutant << ": counterexample not small";
  std::printf("KILL %s %s %llu %zu\n", mutant.c_str(), k.property.c_str(),
              static_cast<unsigned long long>(k.programs), k.nodes);
}

TEST(Mutants, RLetClauseMissingASummand) {
  expect_killed("r_let_summand", mutants::config("r_let_summand"));
}
TEST(Mutants, RSndClauseWithTheWrongZero) {
  expect_killed("r_snd_zero", mutants::config("r_snd_zero"));
}
TEST(Mutants, RFstClauseAsTheExtractedFigurePrintsIt) {
  expect_killed("r_fst_paper_text", mutants::config("r_fst_paper_text"));
}
TEST(Mutants, SymbolicEvaluationWithTotalPredicatesOnly) {
  expect_killed("symbolic_total", mutants::config("symbolic_total"));
}
TEST(Mutants, DenotationWithTotalPredicatesOnly) {
  expect_killed("denotational_total", mutants::config("denotational_total"));
}
// Calls carry the id of the definition they call (lang/resolve.hpp), so running a body in the
// caller's function environment no longer reaches a different function of the same name: it
// differs only in the frame, whose unfolding bound (Fig. 8's letrec_n) the completeness property
// exercises. The smallest such program calls a recursive function from a local one: about 22
// nodes, hence the larger bound.
TEST(Mutants, ClosureRunInTheCallersFunctionEnvironment) {
  expect_killed("closure_dynamic", mutants::config("closure_dynamic"), 25);
}
TEST(Mutants, DenotationalRdUsingJTimesW) {
  expect_killed("den_jw", mutants::config("den_jw"));
}
TEST(Mutants, DenotationWithOneTagForAllLevels) {
  expect_killed("den_one_tag", mutants::config("den_one_tag"));
}
TEST(Mutants, LinearRSendingASumsAdjointToOneSide) {
  expect_killed("linear_add_one_side", mutants::config("linear_add_one_side"));
}
TEST(Mutants, CompiledEvaluatorSubtractingTheWrongWayRound) {
  expect_killed("compiled_sub_swapped", mutants::config("compiled_sub_swapped"));
}
TEST(Mutants, TapeSendingMulsAdjointTimesTheWrongOperand) {
  expect_killed("tape_mul_adjoint", mutants::config("tape_mul_adjoint"));
}
// Reverse mode in the graph: only graph-rd-agrees runs it.
TEST(Mutants, GraphAdjointSteeredByTheOtherSideOfThePredicate) {
  expect_killed("graph_predicate_swapped", mutants::config("graph_predicate_swapped"), 15,
                {"graph-rd-agrees"});
}
TEST(Mutants, GraphFanOutContributionsNotSummed) {
  expect_killed("graph_fanout_unsummed", mutants::config("graph_fanout_unsummed"), 15,
                {"graph-rd-agrees"});
}
// A firing rule of the tagged graph (firing_rules.hpp) broken in the threaded executor alone: the
// Merge reads a bottom predicate as a live true. graph-ref-agrees runs the executor against the
// reference executor, which keeps the rule.
TEST(Mutants, GraphMergeReadingABottomPredicateAsTrue) {
  expect_killed("graph_merge_bottom_taken", mutants::config("graph_merge_bottom_taken"), 15,
                {"graph-ref-agrees"});
}
// Random programs seldom differentiate a tree recursion whose sibling activations save values,
// so the stack is shown on fib's shape, where the siblings' values must not interleave.
TEST(Mutants, GraphSavedValuesInAStackPerDepth) {
  const char* program =
      "def f(p: real * real): real = let (x: real, n: real) = p in\n"
      "  if n < 1.5 then sin(x) else f(x, n - 1) * f(x, n - 2) + x;\n"
      "1.rd[x0](x: real. f(x, 10))";
  test::Checked c = test::check(program, {{"x0", "0.3"}});
  std::vector<Value<double>> values{parse_value<double>("0.3").value};
  std::vector<std::pair<Name, Type>> inputs{{Name("x0"), Type::real()}};
  CheckConfig production;
  EXPECT_EQ(checker::graph_rd_agrees_on(c.term, inputs, values, production).verdict,
            checker::Verdict::Pass);
  // Killed by a wrong derivative, or by the store's own check that an activation saves a slot
  // once (siblings that share a tag save the same slots twice), which `adlang check` reports
  // as a failure like a wrong value (checker/property_registry.cpp).
  checker::Outcome o;
  try {
    o = checker::graph_rd_agrees_on(c.term, inputs, values, mutants::config("graph_store_stack"));
  } catch (const InternalError& e) {
    o = checker::Outcome{checker::Verdict::Fail, e.what()};
  }
  EXPECT_EQ(o.verdict, checker::Verdict::Fail);
  std::printf("KILL graph_store_stack graph-rd-agrees (fib's shape)\n%s\n", o.detail.c_str());
}

}  // namespace
}  // namespace adlang
