// The partitioned tagged graph (thesis Sec. 5.4): placements, the partitioning's structure
// (Send/Recv pairs, copied state machines), execution in one process against the unpartitioned
// graph, and the ablations that show the state machines and the Call -> Return edge are needed.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstring>
#include <functional>

#include "ad/linear_reverse_deriv.hpp"
#include "checker/rapidcheck_generators.hpp"
#include "lang/free_vars.hpp"
#include "semantics/graph/executor.hpp"
#include "semantics/graph/graph_fixtures.hpp"
#include "semantics/graph/lower.hpp"
#include "semantics/graph/partition.hpp"
#include "semantics/graph/partitioned_executor.hpp"
#include "semantics/graph/placement.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::kAck;
using test::kFib;
using test::kMutual;
using test::kTak;
using test::lowered;
using Lowered = test::LoweredGraph;

graph::PartitionedOptions options() {
  graph::PartitionedOptions o;
  o.graph.eval.reverse_deriv = &linear_reverse_deriv;
  o.graph.eval.max_derivative_steps = 200'000'000;
  o.graph.deadness = graph::Deadness::Propagate;
  return o;
}

std::string show(const Lowered& l, const std::function<Value<double>()>& f) {
  try {
    return print_value<double>(l.checked.term.type(), f());
  } catch (const Undefined& e) {
    return std::string("undefined (") + to_string(e.kind()) + "): " + e.what() + " at " +
           std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col);
  }
}

std::string run_placed(const std::string& program, const test::Env& env,
                       const std::vector<std::string>& place, std::uint32_t ranks,
                       graph::PartitionedOptions o = options(),
                       graph::PartitionedStats* stats = nullptr) {
  Lowered l = lowered(program, env);
  std::vector<graph::PlaceSpec> specs;
  for (const std::string& s : place)
    specs.push_back(graph::parse_place(s));
  graph::Partitioned p = graph::partition_graph(l.g, graph::place_nodes(l.g, specs, ranks), ranks);
  return show(l, [&] { return graph::run_partitioned(p, l.values, o, l.checked.names, stats); });
}

std::string run_whole(const std::string& program, const test::Env& env) {
  Lowered l = lowered(program, env);
  graph::GraphOptions o = options().graph;
  return show(l, [&] { return graph::run_graph(l.g, l.values, o, l.checked.names); });
}

// Appendix B: factorial with its base case (line 2) and recursive case (line 3) on different
// tasks.
const char* kFac =
    "def fac(n: real): real = if n < 0.5\n"
    "  then 1\n"
    "  else n * fac(n - 1);\n"
    "fac(n)";

TEST(Placement, ParsesFunctionsAndLines) {
  graph::PlaceSpec a = graph::parse_place("fib=1");
  EXPECT_EQ(a.function, "fib");
  EXPECT_FALSE(a.line.has_value());
  EXPECT_EQ(a.rank, 1u);
  graph::PlaceSpec b = graph::parse_place("fac:3=2");
  EXPECT_EQ(b.function, "fac");
  EXPECT_EQ(*b.line, 3u);
  EXPECT_EQ(b.rank, 2u);
  for (const char* bad : {"fib", "fib=", "=1", "fib=x", "fib:=1", "fib:0=1", "fib:x=1"})
    EXPECT_THROW(graph::parse_place(bad), std::invalid_argument) << bad;
}

TEST(Placement, RefusesUnknownFunctionsLinesAndRanks) {
  Lowered l = lowered(kFac, {{"n", "5"}});
  auto place = [&](const std::string& s, std::uint32_t ranks) {
    return graph::place_nodes(l.g, {graph::parse_place(s)}, ranks);
  };
  EXPECT_NO_THROW(place("fac:3=1", 2));
  try {
    place("fact=1", 2);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no function 'fact' (its functions: main, fac)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(place("fac:9=1", 2), std::invalid_argument);
  EXPECT_THROW(place("fac=2", 2), std::invalid_argument);
}

TEST(Placement, AutomaticDefaultBalancesBodies) {
  Lowered l = lowered(kMutual, {{"n", "3"}});
  std::vector<std::uint32_t> r = graph::place_nodes(l.g, {}, 2);
  // even and odd are the two costliest bodies: one per partition.
  std::uint32_t even = UINT32_MAX, odd = UINT32_MAX;
  for (graph::NodeId id = 0; id < l.g.nodes.size(); ++id) {
    const std::string& b = l.g.bodies[l.g.nodes[id].body].name;
    if (b == "even" && l.g.nodes[id].kind != graph::NodeKind::Return) even = r[id];
    if (b == "odd" && l.g.nodes[id].kind != graph::NodeKind::Return) odd = r[id];
  }
  EXPECT_NE(even, odd);
}

TEST(Partition, FactorialAsInAppendixB) {
  Lowered l = lowered(kFac, {{"n", "5"}});
  std::vector<graph::PlaceSpec> specs{graph::parse_place("main=0"), graph::parse_place("fac=0"),
                                      graph::parse_place("fac:2=1")};
  graph::Partitioned p = graph::partition_graph(l.g, graph::place_nodes(l.g, specs, 2), 2);
  // Partition 1 holds the base case: it needs fac's state machine and main's (which calls
  // fac), both copied, and receives the predicate of fac's Switch.
  const graph::Partition& b = p.parts[1];
  std::size_t copies = 0, site_copies = 0, recvs = 0;
  for (const graph::PartNode& n : b.nodes) {
    copies += n.kind == graph::PartKind::Copy;
    site_copies += n.kind == graph::PartKind::SiteCopy;
    recvs += n.kind == graph::PartKind::Recv;
  }
  EXPECT_GE(copies, 3u);       // main's and fac's control Merges, fac's control Switch
  EXPECT_EQ(site_copies, 2u);  // main's call of fac, fac's call of itself
  EXPECT_GE(recvs, 3u);        // the predicate and the two admissions at least
  EXPECT_EQ(run_placed(kFac, {{"n", "5"}}, {"fac=0", "fac:2=1"}, 2), "120");
  EXPECT_EQ(run_placed(kFac, {{"n", "5"}}, {"fac=1", "fac:2=0"}, 2), "120");
}

TEST(Partition, ThesisProgramsOnTwoAndThreePartitions) {
  struct Case {
    const char* program;
    test::Env env;
  };
  const Case cases[] = {{kFib, {{"n", "12"}}},
                        {kAck, {{"m", "2"}, {"n", "2"}}},
                        {kTak, {{"x", "9"}, {"y", "6"}, {"z", "3"}}},
                        {kMutual, {{"n", "9"}}},
                        {kFac, {{"n", "6"}}}};
  for (const Case& c : cases) {
    std::string want = run_whole(c.program, c.env);
    for (std::uint32_t ranks : {1u, 2u, 3u}) {
      EXPECT_EQ(run_placed(c.program, c.env, {}, ranks), want) << c.program << " " << ranks;
      // Every line of every function on its own partition, round robin.
      Lowered l = lowered(c.program, c.env);
      std::vector<std::string> specs;
      for (const graph::Body& body : l.g.bodies)
        for (std::uint32_t line = 1; line <= 4; ++line)
          for (graph::NodeId id : body.nodes)
            if (l.g.nodes[id].loc.line == line) {
              specs.push_back(body.name + ":" + std::to_string(line) + "=" +
                              std::to_string((line + specs.size()) % ranks));
              break;
            }
      EXPECT_EQ(run_placed(c.program, c.env, specs, ranks), want) << c.program << " " << ranks;
    }
  }
}

TEST(Partition, UntakenBranchOnAnotherPartitionSendsDeadTokens) {
  const char* prog =
      "def f(x: real): real = if x < 0\n"
      "  then log(x * x)\n"
      "  else x * 2;\n"
      "f(a)";
  graph::PartitionedStats st;
  EXPECT_EQ(run_placed(prog, {{"a", "3"}}, {"f=0", "f:2=1"}, 2, options(), &st), "6");
  EXPECT_GT(st.dead_messages[0][1] + st.dead_messages[1][0], 0u);
}

TEST(Partition, BottomOnARemotePartitionKeepsItsReasonAndLocation) {
  const char* prog =
      "def f(x: real): real = if x < 0\n"
      "  then log(x - x)\n"
      "  else x * 2;\n"
      "f(a) + 1";
  std::string want = run_whole(prog, {{"a", "-1"}});
  EXPECT_NE(want.find("outside its domain"), std::string::npos) << want;
  EXPECT_EQ(run_placed(prog, {{"a", "-1"}}, {"f:2=1"}, 2), want);
  EXPECT_EQ(run_placed(prog, {{"a", "-1"}}, {"main=1", "f=0", "f:2=2"}, 3), want);
}

TEST(Partition, OutOfFuelOnEveryPartition) {
  const char* prog = "def f(x: real): real = f(x + 1);\nf(0)";
  graph::PartitionedOptions o = options();
  o.graph.eval.fuel = 1000;
  std::string r = run_placed(prog, {}, {"main=1", "f=0"}, 2, o);
  EXPECT_NE(r.find("out of fuel"), std::string::npos) << r;
}

// Sec. 5.4: without the copied state machines, the partitions that hold part of a function
// never reach its frames; without the Call -> Return control edge, a call in an untaken
// branch leaves its Returns waiting (the thesis: factorial fails without the edge).
TEST(Partition, AblationsDeadlock) {
  graph::PartitionedOptions no_copies = options();
  no_copies.run_state_machine_copies = false;
  EXPECT_THROW(run_placed(kFac, {{"n", "3"}}, {"fac=0", "fac:2=1"}, 2, no_copies), InternalError);
  graph::PartitionedOptions no_edge = options();
  no_edge.call_return_edge = false;
  EXPECT_THROW(run_placed(kFac, {{"n", "3"}}, {"fac=0", "fac:2=1"}, 2, no_edge), InternalError);
  EXPECT_EQ(run_placed(kFac, {{"n", "3"}}, {"fac=0", "fac:2=1"}, 2), "6");
}

// Random programs with random placements (node by node, call sites kept whole) over 2 and 3
// partitions: the same bits, or the same undefinedness, as the unpartitioned graph.
RC_GTEST_PROP(PartitionedAgrees, WithTheUnpartitionedGraph, ()) {
  gen::GeneratedProgram p = *gen::program(gen::GenConfig{});
  std::vector<std::pair<Name, Type>> inputs;
  std::vector<Value<double>> values;
  test::graph_inputs(p, inputs, values);
  graph::Graph g = graph::lower_to_graph(p.term, inputs, graph::RdLowering::Host);
  graph::PartitionedOptions o = options();
  o.graph.eval.fuel = 20000;
  auto attempt = [&](const std::function<Value<double>()>& f) {
    try {
      Value<double> v = f();
      std::string s;
      for (double d : v) {
        std::uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        s += std::to_string(bits) + " ";
      }
      return s;
    } catch (const Undefined& e) {
      return std::string("undefined ") + to_string(e.kind()) + " " + e.what();
    }
  };
  NameSupply n1;
  reserve_names(p.term, n1);
  std::string whole = attempt([&] { return graph::run_graph(g, values, o.graph, n1); });
  // Fuel holds per partition: a run that exhausts it is not comparable.
  RC_PRE(whole.find("out of fuel") == std::string::npos);
  const std::uint32_t ranks = *rc::gen::inRange<std::uint32_t>(2, 4);
  std::vector<std::uint32_t> rank_of = *rc::gen::container<std::vector<std::uint32_t>>(
      g.nodes.size(), rc::gen::inRange<std::uint32_t>(0, ranks));
  graph::unite_call_sites(g, rank_of);
  graph::Partitioned part = graph::partition_graph(g, rank_of, ranks);
  NameSupply n2;
  reserve_names(p.term, n2);
  std::string split = attempt([&] { return graph::run_partitioned(part, values, o, n2); });
  RC_ASSERT(split == whole);
}

}  // namespace
}  // namespace adlang
