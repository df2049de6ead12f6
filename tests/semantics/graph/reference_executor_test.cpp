// The reference executor (semantics/graph/reference_executor.hpp): the firing rules one node
// instance at a time give the threaded executor's values and firings, on the thesis's programs,
// on reverse mode's saved values and on random programs (graph-ref-agrees); and the
// property fails when one executor's Merge takes the other input.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "ad/linear_reverse_deriv.hpp"
#include "checker/graph_agrees.hpp"
#include "graph_fixtures.hpp"
#include "semantics/graph/executor.hpp"
#include "semantics/graph/reference_executor.hpp"

namespace adlang {
namespace {

using test::lowered;

struct Outcome {
  std::string value;  // the printed value, or "undefined (kind)"
  graph::GraphStats stats;
};

template <class Run>
Outcome outcome(const test::LoweredGraph& l, const graph::GraphOptions& o, Run run) {
  Outcome r;
  NameSupply names = l.checked.names;
  try {
    r.value = print_value<double>(l.checked.term.type(), run(l.g, l.values, o, names, &r.stats));
  } catch (const Undefined& e) {
    r.value = std::string("undefined (") + to_string(e.kind()) + ")";
  }
  return r;
}

graph::GraphOptions options(graph::Deadness d, std::uint64_t fuel = 1'000'000) {
  graph::GraphOptions o;
  o.deadness = d;
  o.eval.fuel = fuel;
  o.eval.reverse_deriv = &linear_reverse_deriv;
  return o;
}

// The reference executor's value and firings are the executor's, with deadness elided and
// propagated.
void expect_same(const test::LoweredGraph& l, const std::string& expected,
                 std::uint64_t fuel = 1'000'000) {
  for (graph::Deadness d : {graph::Deadness::Elide, graph::Deadness::Propagate}) {
    const graph::GraphOptions o = options(d, fuel);
    Outcome fast = outcome(l, o, &graph::run_graph);
    Outcome ref = outcome(l, o, &graph::run_graph_reference);
    EXPECT_EQ(ref.value, expected);
    EXPECT_EQ(fast.value, expected);
    if (expected.rfind("undefined", 0) == 0) continue;
    EXPECT_EQ(ref.stats.tokens, fast.stats.tokens);
    EXPECT_EQ(ref.stats.dead_tokens, fast.stats.dead_tokens);
    EXPECT_EQ(ref.stats.calls, fast.stats.calls);
    EXPECT_EQ(ref.stats.frames_created, fast.stats.frames_created);
    EXPECT_EQ(ref.stats.saved_values, fast.stats.saved_values);
    EXPECT_EQ(ref.stats.dead_tokens == 0, d == graph::Deadness::Elide);
  }
}

TEST(GraphReference, ThesisProgramsGiveTheExecutorsValuesAndFirings) {
  expect_same(lowered(test::kFib, {{"n", "12"}}), "233");
  expect_same(lowered(test::kAck, {{"m", "2"}, {"n", "3"}}), "9");
  expect_same(lowered(test::kTak, {{"x", "8"}, {"y", "4"}, {"z", "2"}}), "3");
  expect_same(lowered(test::kMutual, {{"n", "7"}}), "(0, 1)");
}

TEST(GraphReference, UndefinednessIsTheEarliestInEvaluationOrder) {
  // Call by value: an unused undefined value still makes the program undefined.
  expect_same(lowered("let x = log(0) in 1", {}), "undefined (operator outside its domain)");
  // bad(2) reaches log 0 before loop(0) runs out of fuel.
  expect_same(lowered("def bad(n: real): real = if n < 0.5 then log(n) else bad(n - 1);\n"
                      "def loop(n: real): real = loop(n + 1);\nbad(2) + loop(0)",
                      {}),
              "undefined (operator outside its domain)", 500);
  expect_same(lowered(test::kFib, {{"n", "30"}}), "undefined (out of fuel)", 1000);
}

TEST(GraphReference, SavedValuesOfReverseModeAreTakenByTheirAdjoint) {
  expect_same(lowered("def pow(p: real * real): real = let (x: real, n: real) = p in\n"
                      "  if n < 0.5 then 1 else x * pow(x, n - 1);\n"
                      "1.rd[x0](x: real. pow(x, 5))",
                      {{"x0", "2"}}),
              "80");
}

// graph-ref-agrees on one program, with the executor `run`.
checker::Outcome reference_agrees(const std::string& program, const test::Env& env,
                                  checker::CheckConfig config = {}) {
  test::LoweredGraph l = lowered(program, env, graph::RdLowering::Host);
  std::vector<std::pair<Name, Type>> inputs;
  for (const auto& [name, text] : env)
    inputs.emplace_back(Name(name), parse_value<double>(text).type);
  return checker::graph_reference_agrees_on(l.checked.term, inputs, l.values, config);
}

TEST(GraphReferenceAgrees, OnTheThesisPrograms) {
  EXPECT_EQ(reference_agrees(test::kFib, {{"n", "10"}}).verdict, checker::Verdict::Pass);
  EXPECT_EQ(reference_agrees(test::kTak, {{"x", "6"}, {"y", "3"}, {"z", "1"}}).verdict,
            checker::Verdict::Pass);
}

// A test-only break of one executor: it runs the graph with every predicate's operands swapped
// (a < b fires as b < a), the Pred's rule broken there and not in the reference executor. The
// property must see it.
Value<double> run_graph_pred_swapped(const graph::Graph& g, const std::vector<Value<double>>& in,
                                     const graph::GraphOptions& o, NameSupply& names,
                                     graph::GraphStats* stats) {
  graph::Graph h = g;
  for (graph::NodeId id = 0; id < h.nodes.size(); ++id) {
    graph::Node& n = h.nodes[id];
    if (n.kind != graph::NodeKind::Pred) continue;
    std::swap(n.inputs[0], n.inputs[1]);
    for (std::uint32_t i = 0; i < 2; ++i)
      for (graph::Dest& d : h.nodes[n.inputs[i].node].outputs[n.inputs[i].index])
        if (d.node == id && d.input == 1 - i) {
          d.input = i;
          break;
        }
  }
  graph::verify(h);
  graph::GraphOptions own = o;
  own.schedule = nullptr;  // the caller's is g's: h, another graph, needs its own
  return graph::run_graph(h, in, own, names, stats);
}

TEST(GraphReferenceAgrees, FailsWhenOneExecutorsPredicateIsBroken) {
  checker::CheckConfig broken;
  broken.impl.run_graph = &run_graph_pred_swapped;
  const char* cond = "if x < 0 then 1 else 2";
  EXPECT_EQ(reference_agrees(cond, {{"x", "1"}}).verdict, checker::Verdict::Pass);
  checker::Outcome o = reference_agrees(cond, {{"x", "1"}}, broken);
  EXPECT_EQ(o.verdict, checker::Verdict::Fail);
  EXPECT_NE(o.detail.find("reference executor: 2"), std::string::npos) << o.detail;
  EXPECT_EQ(reference_agrees(test::kFib, {{"n", "6"}}, broken).verdict, checker::Verdict::Fail);
}

RC_GTEST_PROP(GraphReferenceAgrees, WithTheExecutorValueAndFirings, ()) {
  gen::GeneratedProgram p = *gen::program(gen::GenConfig{});
  std::vector<std::pair<Name, Type>> inputs;
  std::vector<Value<double>> values;
  test::graph_inputs(p, inputs, values);
  checker::CheckConfig config;
  checker::Outcome o = checker::graph_reference_agrees_on(p.term, inputs, values, config);
  RC_ASSERT(o.verdict != checker::Verdict::Fail);
}

}  // namespace
}  // namespace adlang
