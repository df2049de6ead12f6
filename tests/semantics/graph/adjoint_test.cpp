// Reverse mode inside the tagged graph (semantics/graph/adjoint.hpp, docs/graph-ad.md): the
// thesis's kind of programs differentiated on the graph, checked against the linear R on every
// engine and thread count, what is saved and freed, nesting, the host fallback, undefinedness,
// and agreement on random programs (RapidCheck; `adlang check --property graph-rd-agrees` runs
// more).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "ad/linear_reverse_deriv.hpp"
#include "checker/graph_agrees.hpp"
#include "checker/rapidcheck_generators.hpp"
#include "semantics/graph/dot.hpp"
#include "semantics/graph/executor.hpp"
#include "semantics/graph/graph_fixtures.hpp"
#include "semantics/graph/lower.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::lowered;
using Lowered = test::LoweredGraph;

// graph-rd-agrees on one program: the graph (static and dynamic, 1 and 4 threads, deadness
// elided and propagated) against the compiled evaluator with the linear R.
checker::Verdict agrees(const std::string& program, const test::Env& env, std::string* why) {
  Lowered l = lowered(program, env);
  std::vector<std::pair<Name, Type>> inputs;
  for (std::size_t i = 0; i < env.size(); ++i)
    inputs.emplace_back(Name(env[i].first), parse_value<double>(env[i].second).type);
  checker::CheckConfig config;
  checker::Outcome o = checker::graph_rd_agrees_on(l.checked.term, inputs, l.values, config);
  *why = o.detail;
  return o.verdict;
}

graph::GraphOptions options(unsigned threads = 1) {
  graph::GraphOptions o;
  o.eval.reverse_deriv = &linear_reverse_deriv;
  o.eval.max_derivative_steps = 200'000'000;
  o.threads = threads;
  return o;
}

// The printed value on the static graph, with its statistics.
std::string value(const std::string& program, const test::Env& env, unsigned threads = 1,
                  graph::GraphStats* stats = nullptr) {
  Lowered l = lowered(program, env);
  try {
    return print_value<double>(
        l.checked.term.type(),
        graph::run_graph(l.g, l.values, options(threads), l.checked.names, stats));
  } catch (const Undefined& e) {
    return std::string("undefined (") + to_string(e.kind()) + "): " + e.what();
  }
}

const char* kPow =
    "def pow(p: real * real): real = let (x: real, n: real) = p in\n"
    "  if n < 0.5 then 1 else x * pow(x, n - 1);\n"
    "1.rd[x0](x: real. pow(x, 5))";

TEST(GraphAd, RecursivePowerGradient) {
  std::string why;
  EXPECT_EQ(agrees(kPow, {{"x0", "1.5"}}, &why), checker::Verdict::Pass) << why;
  EXPECT_EQ(value(kPow, {{"x0", "2"}}), "80");
  EXPECT_EQ(value(kPow, {{"x0", "2"}}, 4), "80");
  Lowered l = lowered(kPow, {{"x0", "2"}});
  std::size_t saves = 0, loads = 0;
  for (const graph::Node& n : l.g.nodes) {
    saves += n.kind == graph::NodeKind::Save;
    loads += n.kind == graph::NodeKind::Load;
  }
  EXPECT_EQ(saves, loads);  // one Load takes what each Save keeps
  EXPECT_GT(saves, 0u);
}

// Fuel: the forward calls are charged as symbolic evaluation charges them, the adjoint calls
// are not, so the graph uses exactly the fuel of the host-side rd.
TEST(GraphAd, AdjointCallsChargeNoFuel) {
  graph::GraphStats adjoint, host;
  value(kPow, {{"x0", "2"}}, 1, &adjoint);
  Lowered l = lowered(kPow, {{"x0", "2"}});
  graph::Graph g =
      graph::lower_to_graph(l.checked.term, {{Name("x0"), Type::real()}}, graph::RdLowering::Host);
  graph::run_graph(g, l.values, options(), l.checked.names, &host);
  EXPECT_EQ(adjoint.calls, host.calls);
  EXPECT_EQ(adjoint.calls, 6u);
}

// Saved values live from their forward activation to their adjoint: a linear recursion of
// depth n keeps O(n) of them, and they are all taken (the peak is reached once).
TEST(GraphAd, SavedValuesAreTakenByTheirAdjoint) {
  graph::GraphStats small, large;
  value(kPow, {{"x0", "1.01"}}, 1, &small);
  std::string deep = kPow;
  deep.replace(deep.find("pow(x, 5)"), 9, "pow(x, 50)");
  EXPECT_EQ(value(deep, {{"x0", "1.01"}}, 1, &large).substr(0, 4), "81.4");
  EXPECT_GT(large.peak_saved_values, 9 * small.peak_saved_values);
  EXPECT_EQ(large.saved_values, large.peak_saved_values);  // nothing is taken before the end
}

// Two activations of the same body live at once (fib's calls): saved values are keyed by
// (node, tag), so the 4-thread run interleaves them and still gives the same bits.
TEST(GraphAd, TreeRecursionAtFourThreads) {
  const char* prog =
      "def f(p: real * real): real = let (x: real, n: real) = p in\n"
      "  if n < 1.5 then sin(x) else f(x, n - 1) * f(x, n - 2) + x;\n"
      "1.rd[x0](x: real. f(x, 12))";
  std::string why;
  EXPECT_EQ(agrees(prog, {{"x0", "0.3"}}, &why), checker::Verdict::Pass) << why;
}

TEST(GraphAd, MutualRecursionDerivative) {
  const char* prog =
      "def even(p: real * real): real = let (x: real, n: real) = p in\n"
      "  if n < 0.5 then x else sin(odd(x * x, n - 1));\n"
      "def odd(p: real * real): real = let (x: real, n: real) = p in\n"
      "  if n < 0.5 then exp(x) else x * even(x, n - 1);\n"
      "(1, 2).rd[x0](x: real. (even(x, 7), odd(x, 6)))";
  std::string why;
  EXPECT_EQ(agrees(prog, {{"x0", "0.4"}}, &why), checker::Verdict::Pass) << why;
}

TEST(GraphAd, GradientDescentRunsEntirelyOnTheGraph) {
  std::string prog = test::read_file(test::source_dir() + "/examples/gradient_descent.ad");
  Lowered l = lowered(prog, {{"x", "4"}});
  for (const graph::Node& n : l.g.nodes)
    EXPECT_NE(n.kind, graph::NodeKind::Rd);
  std::string why;
  EXPECT_EQ(agrees(prog, {{"x", "4"}}, &why), checker::Verdict::Pass) << why;
  EXPECT_EQ(value(prog, {{"x", "4"}}), "13.9817150283776");
}

TEST(GraphAd, NestedDerivativesAndForwardMode) {
  std::string why;
  for (const char* prog :
       {"1.rd[1](x: real. x * 1.rd[1](y: real. x + y))",
        "1.rd[1](z1: real. 1.rd[0](z2: real. z2.rd[0](z3: real. sin(z3) * z1)))",
        "1.rd[0.5](z1: real. 1.rd[0](z2: real. 0.rd[0](z3: real. z3) + z2 * z1))",
        "(1.fd[0.5](x: real. (x * x, sin(x))), 2.fd[0.5](x: real. (x * x, sin(x))))"}) {
    EXPECT_EQ(agrees(prog, {}, &why), checker::Verdict::Pass) << prog << "\n" << why;
  }
  EXPECT_EQ(value("1.rd[1](z1: real. 1.rd[0](z2: real. z2.rd[0](z3: real. sin(z3) * z1)))", {}),
            "1");
}

// Ordering tokens (docs/graph-ad.md, "Unordered adjoints"): a first-order rd's adjoints have
// no Gate on done and no Sync; where rds nest, every adjoint keeps them, since an outer rd's
// adjoint may start only once the forward copy of an inner adjoint has saved all it saves (the
// program below, unordered, read a predicate its forward copy had not saved yet).
TEST(GraphAd, AdjointsKeepOrderingTokensOnlyWhereRdsNest) {
  auto adjoint_kinds = [](const std::string& program) {
    Lowered l = lowered(program, {{"x0", "1.5"}});
    std::size_t gates = 0, syncs = 0;
    for (const graph::Node& n : l.g.nodes) {
      if (l.g.bodies[n.body].role != graph::BodyRole::Adjoint) continue;
      gates += n.kind == graph::NodeKind::Gate;
      syncs += n.kind == graph::NodeKind::Sync;
    }
    return std::make_pair(gates, syncs);
  };
  EXPECT_EQ(adjoint_kinds(kPow), std::make_pair(std::size_t{0}, std::size_t{0}));
  const char* nested =
      "(0, 0).rd[0](z1: real. (0, 0, 0).rd[(0, 0)](z2: real * real.\n"
      "  letrec h(p3: real * real): real * real = if 0 < 1 then p3 else p3 in\n"
      "  letrec f(p5: real * real): real * real = h(p5) in\n"
      "  let r7: real * real = f(1, 0) in (z2, 0)))";
  EXPECT_GT(adjoint_kinds(nested).first, 0u);
  EXPECT_EQ(value(nested, {}), "0");
  std::string why;
  EXPECT_EQ(agrees(nested, {}, &why), checker::Verdict::Pass) << why;
}

// A unit-valued body or conditional returns a token that may be a real value consumed only
// for strictness (an unused parameter, an unused let): its cotangent is zero, not the token.
TEST(GraphAd, UnitResultsCarryNoCotangent) {
  std::string why;
  for (const char* prog :
       {"def u(x: real): unit = *;\n1.rd[x0](x: real. let v: unit = u(x) in x * x)",
        "1.rd[x0](x: real. let v: unit = (if x < 0 then * else (let z: real = x * 2 in *)) in "
        "x * x)"}) {
    EXPECT_EQ(value(prog, {{"x0", "1.5"}}), "3") << prog;
    EXPECT_EQ(agrees(prog, {{"x0", "1.5"}}, &why), checker::Verdict::Pass) << prog << "\n" << why;
  }
}

// A gradient of n inputs, lowered through call sites, passes them to the forward body through
// one call site of n + 1 Calls (one node of the schedule) and returns n cotangents: more than
// 65535 of them lower and run, as the gradients of docs/performance.md Sec. 5 (10^5 inputs)
// need; inlined (the default), the same inputs reach its nodes directly.
TEST(GraphAd, GradientsOfMoreThan65535Inputs) {
  const std::size_t half = 35000, n = 2 * half;  // (real^n is at most real^65536)
  std::string block = "(";
  for (std::size_t i = 0; i + 1 < half; ++i)
    block += "0.5, ";
  const std::string v = block + "0.5), " + block + "2)";
  const std::string t = "real^" + std::to_string(half);
  const std::string prog = "grad[v](u: " + t + " * " + t + ". snd (snd u) * sin(snd (snd u)))";
  Lowered l = lowered(prog, {{"v", "(" + v + ")"}});
  const graph::Graph called = lowered(prog, {{"v", "(" + v + ")"}}, graph::RdLowering::Calls).g;
  std::size_t calls = 0, inlined_calls = 0;
  for (const graph::Node& x : called.nodes)
    calls += x.kind == graph::NodeKind::Call;
  for (const graph::Node& x : l.g.nodes)
    inlined_calls += x.kind == graph::NodeKind::Call;
  EXPECT_GT(calls, n);
  EXPECT_EQ(inlined_calls, 0u);
  EXPECT_EQ(graph::run_graph(called, l.values, options(), l.checked.names),
            graph::run_graph(l.g, l.values, options(), l.checked.names));
  Value<double> got = graph::run_graph(l.g, l.values, options(), l.checked.names);
  ASSERT_EQ(got.size(), n);
  EXPECT_EQ(got[0], 0.0);
  EXPECT_EQ(got[n - 2], 0.0);
  // d/dx x sin x = sin x + x cos x at x = 2, as the compiled evaluator's tape computes it.
  EXPECT_EQ(print_value<double>(Type::real(), Value<double>{got[n - 1]}),
            test::run<double>("1.rd[x](y: real. y * sin(y))", {{"x", "2"}}));
}
// An undefined rd deep in a recursion leaves a deep trie of saved values behind; it is freed
// without recursion on a worker thread's stack.
TEST(GraphAd, DeepTrieOfAnUndefinedRdIsFreed) {
  const char* prog =
      "def f(p: real * real): real = let (x: real, n: real) = p in\n"
      "  if n < 0.5 then log(x - 10) else f(x, n - 1) * x;\n"
      "def g(y: real): real = 1.rd[y](x: real. f(x, 100000));\n"
      "g(x0)";
  EXPECT_EQ(value(prog, {{"x0", "1"}}, 2).substr(0, 20), "undefined (operator ");
}

// A frame that has sent its last output no longer holds its parent, so an rd's host frame can
// end while activations of its rds still run (here each step of a recursion nests rds of unit
// points, `().fd[()](...)`); the tags of those activations, held by their frames, outlive the
// trie's root. (Once they went with the root, were reused while still in the trie, and made a
// cycle in it: the graph ran out of memory where the compiled evaluator answers at once.)
TEST(GraphAd, RdActivationsOutliveTheirHostFrame) {
  const std::pair<std::string, std::string> programs[] = {
      {"def f(p: real * real): real = let (n: real, x: real) = p in\n"
       "  if n < 0.5 then 1 else let r: real = f(n - 1, x) in ().fd[()](u: unit. r);\n"
       "f(3, x0)",
       "0"},
      {test::read_file(test::source_dir() + "/tests/semantics/graph/rd_in_recursion.ad"),
       "(0, 0, 0)"}};
  // The compiled evaluator with the tape, as `adlang run` (the host-side Rd nodes too).
  EvalOptions total;
  total.predicates = PredicateMode::Total;
  total.evaluator = Evaluator::Compiled;
  use_ad(total, AdMode::Tape);
  checker::CheckConfig config;
  config.predicates = PredicateMode::Total;
  for (const auto& [prog, value] : programs) {
    const test::Env env{{"x0", "0"}};
    const std::string expected = test::run<double>(prog, env, total);
    EXPECT_EQ(expected, value);
    for (graph::RdLowering rd :
         {graph::RdLowering::Adjoint, graph::RdLowering::Calls, graph::RdLowering::Host}) {
      Lowered l = lowered(prog, env, rd);
      for (graph::Engine e : {graph::Engine::Static, graph::Engine::Dynamic})
        for (unsigned threads : {1u, 2u, 4u})
          for (graph::Deadness d : {graph::Deadness::Elide, graph::Deadness::Propagate}) {
            graph::GraphOptions o = options(threads);
            o.engine = e;
            o.deadness = d;
            o.eval = total;
            NameSupply names = l.checked.names;
            EXPECT_EQ(print_value<double>(l.checked.term.type(),
                                          graph::run_graph(l.g, l.values, o, names)),
                      expected);
          }
    }
    // Bit for bit against the compiled evaluator, and against the linear R.
    Lowered l = lowered(prog, env);
    std::vector<std::pair<Name, Type>> inputs{{Name("x0"), Type::real()}};
    EXPECT_EQ(checker::graph_agrees_on(l.checked.term, inputs, l.values, config).verdict,
              checker::Verdict::Pass);
    EXPECT_EQ(checker::graph_rd_agrees_on(l.checked.term, inputs, l.values, config).verdict,
              checker::Verdict::Pass);
  }
}

// An rd the recursion passes through has no finite static graph: it stays a host-side node.
TEST(GraphAd, RecursionThroughRdFallsBackToTheHostNode) {
  std::string prog = test::read_file(test::source_dir() + "/examples/own_derivative.ad");
  Lowered l = lowered(prog, {{"n", "3"}, {"x", "0.5"}});
  std::size_t rd_nodes = 0;
  for (const graph::Node& n : l.g.nodes)
    rd_nodes += n.kind == graph::NodeKind::Rd;
  EXPECT_EQ(rd_nodes, 1u);
  EXPECT_EQ(l.g.store_slots, 0u);
  EXPECT_EQ(value(prog, {{"n", "3"}, {"x", "0.5"}}), "-0.8775825618903728");
  // Out of fuel inside the host-side evaluation: the message counts the run's calls (dsin(3),
  // then dsin(2) and dsin(1) in the Rd's evaluation), as the compiled evaluator's does.
  graph::GraphOptions o = options();
  o.eval.fuel = 3;
  try {
    graph::run_graph(l.g, l.values, o, l.checked.names);
    ADD_FAILURE() << "the run has more calls than its fuel";
  } catch (const Undefined& e) {
    EXPECT_EQ(e.kind(), UndefinedKind::Fuel);
    EXPECT_EQ(std::string(e.what()), "out of fuel after 3 function calls in 'dsin'");
  }
}

TEST(GraphAd, UndefinedWhereTheBodyIsUndefined) {
  EXPECT_EQ(value("1.rd[x0](x: real. log(x))", {{"x0", "-1"}}).substr(0, 20),
            "undefined (operator ");
  std::string why;
  EXPECT_EQ(agrees("1.rd[x0](x: real. log(x))", {{"x0", "-1"}}, &why),
            checker::Verdict::BothUndefined)
      << why;
  EXPECT_EQ(agrees("1.rd[x0](x: real. if x < 0 then x else sqrt(x))", {{"x0", "0"}}, &why),
            checker::Verdict::BothUndefined)
      << why;
}

// R computes no cotangent for the free variables of the rd's body, nor for a result no adjoint
// reads: the graph's adjoint computes the first and drops it, and skips the second, so an
// undefinedness in their reverse templates (here z * z and y * y underflow to 0: a division by
// zero) is not the derivative's. (Where rds nest, and where a cotangent is zero only at run
// time, the templates still run: docs/graph-ad.md, "Where the graph's rd is undefined and R's
// is not".)
TEST(GraphAd, CotangentsRNeverComputesAreNotItsUndefinedness) {
  const std::vector<std::pair<std::string, test::Env>> cases = {
      {"grad[x](y: real. y / z)", {{"x", "1"}, {"z", "1e-200"}}},
      {"1.rd[x](y: real. y * z * 1e300)", {{"x", "1e10"}, {"z", "1e-300"}}},
      {"grad[x](y: real. let u: real = 1 / y in y)", {{"x", "1e-200"}}},
  };
  const std::vector<std::string> want = {"1e+200", "1", "1"};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].first);
    EXPECT_EQ(value(cases[i].first, cases[i].second), want[i]);
    std::string why;
    EXPECT_EQ(agrees(cases[i].first, cases[i].second, &why), checker::Verdict::Pass) << why;
  }
}

// An rd whose body makes no calls is inlined into its host (semantics/graph/inline_rd.hpp):
// no call sites, nothing saved, half the tokens, and the value of the two call sites.
const char* kBranching = "1.rd[x0](x: real. if x < 0 then x * x else sin(x) * x)";

TEST(GraphAd, RdsWithoutCallsAreInlined) {
  Lowered inl = lowered(kBranching, {{"x0", "0.7"}});
  Lowered called = lowered(kBranching, {{"x0", "0.7"}}, graph::RdLowering::Calls);
  EXPECT_EQ(inl.g.inlined_rds(), 1u);
  EXPECT_EQ(called.g.inlined_rds(), 0u);
  EXPECT_EQ(inl.g.bodies.size(), 1u);
  EXPECT_TRUE(inl.g.sites.empty());
  EXPECT_EQ(inl.g.store_slots, 0u);
  for (const graph::Node& n : inl.g.nodes) {
    EXPECT_NE(n.kind, graph::NodeKind::Save);
    EXPECT_NE(n.kind, graph::NodeKind::Load);
  }
  graph::GraphStats a, b;
  EXPECT_EQ(graph::run_graph(inl.g, inl.values, options(), inl.checked.names, &a),
            graph::run_graph(called.g, called.values, options(), called.checked.names, &b));
  EXPECT_EQ(a.saved_values, 0u);
  EXPECT_EQ(b.saved_values, 3u);
  EXPECT_LT(a.tokens, b.tokens);
  EXPECT_EQ(value(kBranching, {{"x0", "0.7"}}), test::run<double>(kBranching, {{"x0", "0.7"}}));
  // The pow of the worked example calls itself: its rd keeps its call sites.
  EXPECT_EQ(lowered(kPow, {{"x0", "2"}}).g.inlined_rds(), 0u);
  // Where rds nest, the outer one differentiates the inner one's bodies: nothing is inlined.
  EXPECT_EQ(lowered("1.rd[1](x: real. x * 1.rd[1](y: real. x + y))").g.inlined_rds(), 0u);
}

// The inlined rd is strict in V, W and N's free variables, as its call sites were, and reports
// the first undefinedness in evaluation order with its reason and location: the forward
// activation's before the host's later nodes, V's before the forward activation's.
TEST(GraphAd, InlinedRdsAreUndefinedWhereTheirCallsWere) {
  const std::vector<std::pair<std::string, test::Env>> cases = {
      {"0.rd[x0](z: real. 0)", {{"x0", "1"}}},
      {"0.rd[log(x0)](z: real. 0)", {{"x0", "-1"}}},
      {"log(x0).rd[0](z: real. z)", {{"x0", "-1"}}},
      {"let u: real = 2 in 1.rd[x0](z: real. floor(z) * u)", {{"x0", "0"}}},
      {"(1.rd[x0](z: real. log(z)), log(x0 - 1))", {{"x0", "-1"}}},
      {"(log(x0 - 1), 1.rd[x0](z: real. log(z)))", {{"x0", "-1"}}},
      {"1.rd[sqrt(x0)](z: real. log(z))", {{"x0", "-1"}}},
  };
  for (const auto& [program, env] : cases) {
    SCOPED_TRACE(program);
    Lowered inl = lowered(program, env);
    Lowered called = lowered(program, env, graph::RdLowering::Calls);
    EXPECT_EQ(inl.g.inlined_rds(), 1u);
    std::string a, b;
    try {
      a = print_value<double>(inl.checked.term.type(),
                              graph::run_graph(inl.g, inl.values, options(), inl.checked.names));
    } catch (const Undefined& e) {
      a = std::string("undefined: ") + e.what() + " at " + std::to_string(e.loc().line) + ":" +
          std::to_string(e.loc().col);
    }
    try {
      b = print_value<double>(
          called.checked.term.type(),
          graph::run_graph(called.g, called.values, options(), called.checked.names));
    } catch (const Undefined& e) {
      b = std::string("undefined: ") + e.what() + " at " + std::to_string(e.loc().line) + ":" +
          std::to_string(e.loc().col);
    }
    EXPECT_EQ(a, b);
    std::string why;
    EXPECT_NE(agrees(program, env, &why), checker::Verdict::Fail) << why;
  }
}

// An rd whose body calls a function, in a branch not taken, next to a value routed into that
// branch and bound there unused: the two Switches that route it both leave the schedule
// (Switches read through), and the schedule's slots are compacted past the entries they
// leave ("a schedule reads a slot nothing writes" before; found by an independent review).
TEST(GraphAd, RdCallingAFunctionInAnUntakenBranch) {
  const char* prog =
      "def id(w: real): real = w;\n"
      "if a < 2 then a else (if 1.rd[b](w: real. id(w)) > a then (let q: real = b in 1) else a)";
  for (graph::RdLowering rd : {graph::RdLowering::Adjoint, graph::RdLowering::Calls}) {
    for (const auto& [a, want] : {std::make_pair("1", "1"), std::make_pair("3", "3")}) {
      Lowered l = lowered(prog, {{"a", a}, {"b", "2"}}, rd);
      for (graph::Deadness d : {graph::Deadness::Elide, graph::Deadness::Propagate}) {
        graph::GraphOptions o = options();
        o.deadness = d;
        EXPECT_EQ(
            print_value<double>(Type::real(), graph::run_graph(l.g, l.values, o, l.checked.names)),
            want);
      }
    }
  }
  std::string why;
  EXPECT_EQ(agrees(prog, {{"a", "1"}, {"b", "2"}}, &why), checker::Verdict::Pass) << why;
}

// The picture of an inlined rd: its forward (blue) and adjoint (red) nodes in main's cluster.
TEST(GraphAd, InlinedRdGolden) {
  test::expect_golden("graph/inlined_rd.dot",
                      graph::to_dot(lowered(kBranching, {{"x0", "0.7"}}).g));
}

RC_GTEST_PROP(GraphRdAgrees, WithTheLinearR, ()) {
  gen::GeneratedProgram p = *gen::program(gen::GenConfig{});
  std::vector<std::pair<Name, Type>> inputs;
  std::vector<Value<double>> values;
  test::graph_inputs(p, inputs, values);
  checker::CheckConfig config;
  checker::Outcome o = checker::graph_rd_agrees_on(p.term, inputs, values, config);
  RC_ASSERT(o.verdict != checker::Verdict::Fail);
}

}  // namespace
}  // namespace adlang
