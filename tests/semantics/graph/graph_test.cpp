// The tagged dataflow graph (semantics/graph): the thesis's programs, undefinedness with its
// reason and location, budgets, pictures, and agreement with the compiled evaluator on random
// programs (RapidCheck; `adlang check --property graph-agrees` runs more).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "ad/linear_reverse_deriv.hpp"
#include "checker/graph_agrees.hpp"
#include "checker/rapidcheck_generators.hpp"
#include "driver/commands.hpp"
#include "lang/free_vars.hpp"
#include "semantics/graph/dot.hpp"
#include "semantics/graph/executor.hpp"
#include "semantics/graph/graph_fixtures.hpp"
#include "semantics/graph/lower.hpp"
#include "semantics/graph/schedule.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::kAck;
using test::kFib;
using test::kMutual;
using test::kTak;
using test::lowered;
using Lowered = test::LoweredGraph;

graph::GraphOptions options(graph::Engine e = graph::Engine::Static, unsigned threads = 1,
                            graph::Deadness d = graph::Deadness::Elide);

// The printed value, or "undefined (<kind>): <reason> at L:C".
std::string run_graph(const std::string& program, const test::Env& env = {},
                      graph::GraphOptions o = options(), graph::GraphStats* stats = nullptr) {
  Lowered l = lowered(program, env);
  try {
    Value<double> v = graph::run_graph(l.g, l.values, o, l.checked.names, stats);
    return print_value<double>(l.checked.term.type(), v);
  } catch (const Undefined& e) {
    return std::string("undefined (") + to_string(e.kind()) + "): " + e.what() + " at " +
           std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col);
  }
}

graph::GraphOptions options(graph::Engine e, unsigned threads, graph::Deadness d) {
  graph::GraphOptions o;
  o.eval.reverse_deriv = &linear_reverse_deriv;  // as `adlang run` (--ad linear)
  o.eval.max_derivative_steps = 200'000'000;
  o.engine = e;
  o.threads = threads;
  o.deadness = d;
  return o;
}

TEST(GraphThesisPrograms, FibAckTakOnEveryEngine) {
  for (graph::Engine e : {graph::Engine::Static, graph::Engine::Dynamic}) {
    for (unsigned threads : {1u, 2u}) {
      for (graph::Deadness d : {graph::Deadness::Elide, graph::Deadness::Propagate}) {
        graph::GraphOptions o = options(e, threads, d);
        EXPECT_EQ(run_graph(kFib, {{"n", "18"}}, o), "4181");
        EXPECT_EQ(run_graph(kAck, {{"m", "2"}, {"n", "3"}}, o), "9");
        EXPECT_EQ(run_graph(kTak, {{"x", "12"}, {"y", "8"}, {"z", "4"}}, o), "5");
        EXPECT_EQ(run_graph(kMutual, {{"n", "7"}}, o), "(0, 1)");
      }
    }
  }
}

TEST(GraphThesisPrograms, ThesisSizes) {
  EXPECT_EQ(run_graph(kFib, {{"n", "24"}}), "75025");
  EXPECT_EQ(run_graph(kAck, {{"m", "3"}, {"n", "3"}}), "61");
}

TEST(GraphFrames, FreedWithTheirLastTokenSoPeakIsTheDepth) {
  graph::GraphStats s;
  EXPECT_EQ(run_graph(kFib, {{"n", "15"}}, options(), &s), "987");
  EXPECT_EQ(s.frames_created, 1973u);  // every call of fib(15)
  EXPECT_EQ(s.calls, 1973u);
  // The main frame and, per level of the recursion, the frame running and the frame of its
  // sibling call (a block makes both calls at once; the first, fib(n - 1), runs first, as in
  // sequential evaluation).
  EXPECT_LE(s.peak_live_frames, 1u + 2u * 15u);
  EXPECT_EQ(s.dead_tokens, 0u);  // elided
  graph::GraphStats p;
  run_graph(kFib, {{"n", "15"}}, options(graph::Engine::Static, 1, graph::Deadness::Propagate), &p);
  EXPECT_GT(p.dead_tokens, 0u);
  EXPECT_EQ(p.frames_created, 1973u);  // dead tokens never enter a body
}

// Several workers publish their frames to the shared count in batches; a run too small to fill
// a batch still reports the frames a worker saw live (a lower bound, as the published peak is).
TEST(GraphFrames, PeakOfASmallRunAtSeveralThreads) {
  graph::GraphStats s;
  EXPECT_EQ(run_graph(kFib, {{"n", "2"}}, options(graph::Engine::Static, 4), &s), "2");
  EXPECT_EQ(s.frames_created, 3u);
  EXPECT_GE(s.peak_live_frames, 2u);  // the main frame and the call running
  EXPECT_LE(s.peak_live_frames, 4u);
}

// With several threads, worker 0 (the caller's thread) starts alone and brings in the others when
// it holds work another could take: a tree recursion gives it siblings to hand over at once, a
// linear one never does, and its run stays on one thread (work_stealing.hpp).
TEST(GraphThreads, WorkerZeroBringsInTheOthersOnlyWhenItHoldsWorkToHandOver) {
  for (graph::Engine e : {graph::Engine::Static, graph::Engine::Dynamic}) {
    graph::GraphStats tree;
    EXPECT_EQ(run_graph(kFib, {{"n", "18"}}, options(e, 4), &tree), "4181");
    EXPECT_EQ(tree.workers, 4u);
    EXPECT_EQ(tree.workers_taking_part, 4u);
    graph::GraphStats line;
    EXPECT_EQ(run_graph("def f(n: real): real = if n < 0.5 then 0 else f(n - 1) + 2;\nf(300)", {},
                        options(e, 4), &line),
              "600");
    EXPECT_EQ(line.workers, 4u);
    EXPECT_EQ(line.workers_taking_part, 1u);
    EXPECT_EQ(line.frames_created, 301u);
  }
  graph::GraphStats one;
  run_graph(kFib, {{"n", "10"}}, options(), &one);
  EXPECT_EQ(one.workers, 1u);
  EXPECT_EQ(one.workers_taking_part, 1u);
}

// A run bounded in time, or in the growth of resident memory from its first poll (the checker's
// graph properties give every run both), ends with RunBoundExceeded saying which; within its
// bound it runs as without one. Each run is on a thread of its own, whose frame memory is fresh.
TEST(GraphRunBound, ARunPastItsBoundEndsWithTheBoundItExceeded) {
  const char* deep = "def f(n: real): real = if n < 0.5 then 0 else f(n - 1) + 1;\nf(200000)";
  auto on_fresh_thread = [&](graph::RunBound bound) {
    std::string out;
    std::thread t([&] {
      Lowered l = lowered(deep);
      graph::GraphOptions o = options();
      o.bound = bound;
      try {
        out = print_value<double>(l.checked.term.type(),
                                  graph::run_graph(l.g, l.values, o, l.checked.names));
      } catch (const graph::RunBoundExceeded& e) {
        out = e.what();
      }
    });
    t.join();
    return out;
  };
  EXPECT_EQ(on_fresh_thread({0, std::uint64_t{1} << 30}), "200000");
  EXPECT_EQ(on_fresh_thread({1e-9, 0}), "the run took more than its bound of 0.000000 s");
  EXPECT_EQ(on_fresh_thread({0, std::uint64_t{4} << 20}),
            "the run grew resident memory by more than its bound of 4 MiB");
}

// With several threads, a frame another worker may return keeps its hold on its parent until
// it is freed (the executor's returned_to), so that an undefinedness below it finds every
// ancestor alive when its place in evaluation order is taken; and every frame is freed by the
// end of the run (the executor checks it). Tree recursion gives the workers frames to share.
TEST(GraphFrames, ASharedFrameHoldsItsParentUntilItIsFreed) {
  const char* program =
      "def g(n: real): real = if n < 0.5 then 1 else g(n - 1) + g(n - 1);\n"
      "def f(n: real): real = if n < 0.5 then log(n - 1) else g(n) * f(n - 1) + g(n);\n"
      "f(11) + g(12)";
  const std::string expected = run_graph(program);
  EXPECT_EQ(expected,
            "undefined (operator outside its domain): log(x) is undefined at x = -1 at 2:40");
  for (graph::Engine e : {graph::Engine::Static, graph::Engine::Dynamic})
    for (int i = 0; i < 20; ++i)
      EXPECT_EQ(run_graph(program, {}, options(e, 4)), expected);
}

TEST(GraphUndefined, ReasonAndLocation) {
  EXPECT_EQ(run_graph("let x: real = log(0) in 1"),
            "undefined (operator outside its domain): log(x) is undefined at x = 0 at 1:15");
  // The first undefinedness in left-to-right order is reported, whatever fires first.
  EXPECT_EQ(run_graph("(1 / 0, if 0 < 0 then 1 else 2)").substr(0, 40),
            "undefined (operator outside its domain):");
  EXPECT_EQ(run_graph("(if 0 < 0 then 1 else 2, 1 / 0)").substr(0, 30),
            "undefined (predicate undefined");
  // A value computed in a branch and never used still makes the program undefined.
  EXPECT_EQ(run_graph("if 1 < 2 then let y: real = sqrt(-1) in 3 else 4").substr(0, 40),
            "undefined (operator outside its domain):");
  // The untaken branch is never evaluated.
  EXPECT_EQ(run_graph("if 1 < 2 then 3 else log(0)"), "3");
}

TEST(GraphUndefined, ABottomArgumentIsReturnedWithoutEnteringTheCallee) {
  // Call by value: the argument's undefinedness is the program's, even though f never uses its
  // argument and would recurse until the fuel runs out (found by graph-agrees, seed 5).
  const char* program =
      "def f(p: real): real = f(p);\n"
      "letrec h(q: real): real = f(q) in h(if x <= -1.5 then 0 else 0)";
  for (graph::Engine e : {graph::Engine::Static, graph::Engine::Dynamic}) {
    for (unsigned threads : {1u, 4u}) {
      for (graph::Deadness d : {graph::Deadness::Elide, graph::Deadness::Propagate}) {
        graph::GraphOptions o = options(e, threads, d);
        o.eval.fuel = 2000;
        graph::GraphStats s;
        EXPECT_EQ(run_graph(program, {{"x", "-1.5"}}, o, &s).substr(0, 30),
                  "undefined (predicate undefined");
        EXPECT_EQ(s.frames_created, 0u);
      }
    }
  }
}

TEST(GraphSchedule, FibHasABlockPerEventSet) {
  Lowered l = lowered(kFib, {{"n", "3"}});
  const graph::Body& fib = l.g.bodies[1];
  ASSERT_EQ(fib.name, "fib");
  graph::Schedule s = graph::make_schedule(l.g, fib);
  // The entry, the return of each call site, the addition after both, the Merge's block.
  ASSERT_EQ(s.blocks.size(), 5u);
  int merges = 0, calls = 0;
  for (const graph::Block& b : s.blocks)
    merges += b.merge ? 1 : 0;
  for (const graph::ScheduledNode& n : s.nodes)
    calls += n.kind == graph::NodeKind::Call ? 1 : 0;
  EXPECT_EQ(merges, 1);
  EXPECT_EQ(calls, 2);  // each call site (two Calls: argument and control) is one node
  // The entry waits for the arguments, a return block for its callee, the addition for both
  // return blocks, the Merge for its three inputs.
  EXPECT_EQ(s.blocks[s.entry].pending, 1);
  EXPECT_EQ(s.blocks[s.return_block[0]].pending, 1);
  EXPECT_EQ(s.blocks[s.return_block[0]].first, s.blocks[s.return_block[0]].end);  // Returns only
  for (const graph::Block& b : s.blocks) {
    if (b.merge) {
      EXPECT_EQ(b.pending, 3);
    } else if (b.sources == 0) {
      EXPECT_EQ(b.pending, 2);
    }
  }
}

// The ranges of a schedule: each starts at the node that carries it, ranges are nested or
// disjoint, and a chain of ranges starting at one node goes from the outer to the inner.
std::vector<std::pair<std::uint32_t, std::uint32_t>> guarded_ranges(const graph::Schedule& s) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> r;
  for (std::uint32_t q = 0; q < s.nodes.size(); ++q)
    for (std::uint32_t x = s.nodes[q].guard; x != graph::kNoGuard; x = s.guards[x].next)
      r.emplace_back(q, s.guards[x].end);
  for (const auto& [a0, a1] : r) {
    EXPECT_LT(a0, a1);
    for (const auto& [b0, b1] : r)
      EXPECT_TRUE(a1 <= b0 || b1 <= a0 || (a0 <= b0 && b1 <= a1) || (b0 <= a0 && a1 <= b1));
  }
  return r;
}

// A graph's schedule made once serves several runs, on every engine and thread count, with the
// results and statistics of runs that make their own; one made for the other way of handling
// deadness is refused.
TEST(GraphSchedule, MadeOnceForSeveralRuns) {
  const Lowered l = lowered(kAck, {{"m", "2"}, {"n", "3"}});
  for (graph::Deadness d : {graph::Deadness::Elide, graph::Deadness::Propagate}) {
    const graph::GraphSchedule once =
        graph::make_graph_schedule(l.g, /*with_guards=*/d == graph::Deadness::Elide);
    for (graph::Engine e : {graph::Engine::Static, graph::Engine::Dynamic}) {
      for (unsigned threads : {1u, 4u}) {
        graph::GraphOptions o = options(e, threads, d);
        graph::GraphStats own, shared;
        NameSupply n1 = l.checked.names, n2 = l.checked.names;
        const Value<double> a = graph::run_graph(l.g, l.values, o, n1, &own);
        o.schedule = &once;
        const Value<double> b = graph::run_graph(l.g, l.values, o, n2, &shared);
        EXPECT_EQ(a, b);
        EXPECT_EQ(b, Value<double>{9});
        if (threads == 1) {  // (the counts of one thread's runs are deterministic)
          EXPECT_EQ(own.tokens, shared.tokens);
          EXPECT_EQ(own.dead_tokens, shared.dead_tokens);
          EXPECT_EQ(own.peak_live_frames, shared.peak_live_frames);
        }
      }
    }
    graph::GraphOptions other =
        options(graph::Engine::Static, 1,
                d == graph::Deadness::Elide ? graph::Deadness::Propagate : graph::Deadness::Elide);
    other.schedule = &once;
    NameSupply names = l.checked.names;
    EXPECT_THROW(graph::run_graph(l.g, l.values, other, names), InternalError);
  }
}

TEST(GraphSchedule, UntakenSideIsOneRange) {
  Lowered l = lowered(kFib, {{"n", "3"}});
  graph::Schedule s = graph::make_schedule(l.g, l.g.bodies[1]);
  const graph::Block& entry = s.blocks[s.entry];
  // fib's entry block: `n < 1.5`, then each side of the conditional contiguous: the constant
  // 1, and n - 1, n - 2 with both call sites. Each is a range to jump over: the side with the
  // calls for its length, the constant's (one node) because checking it lets the Switch of the
  // control token leave the schedule (SwitchElision); so does n's, which only the calls' side
  // reads.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> r = guarded_ranges(s);
  ASSERT_EQ(r.size(), 2u);
  for (const graph::ScheduledNode& n : s.nodes)
    EXPECT_NE(n.kind, graph::NodeKind::Switch);
  const auto with_calls = r[0].second - r[0].first > 1 ? r[0] : r[1];
  const auto constant = r[0].second - r[0].first > 1 ? r[1] : r[0];
  for (const auto& [a0, a1] : r) {
    EXPECT_LE(entry.first, a0);
    EXPECT_LE(a1, entry.end);
  }
  std::uint32_t calls = 0;
  for (std::uint32_t q = with_calls.first; q < with_calls.second; ++q)
    calls += s.nodes[q].kind == graph::NodeKind::Call ? 1 : 0;
  EXPECT_EQ(calls, 2u);
  ASSERT_EQ(constant.second - constant.first, 1u);
  EXPECT_EQ(s.nodes[constant.first].kind, graph::NodeKind::Const);
  // Nothing outside reads the calls' side (their results come back to the Returns); the
  // Merge, in its own block, reads the constant.
  const graph::Guard& gd = s.guards[s.nodes[with_calls.first].guard];
  EXPECT_EQ(gd.exports_end - gd.exports, 0u);
  const graph::Guard& gc = s.guards[s.nodes[constant.first].guard];
  EXPECT_EQ(gc.exports_end - gc.exports, 1u);
}

TEST(GraphSchedule, NestedConditionalsAreNestedRanges) {
  Lowered l = lowered(kAck, {{"m", "2"}, {"n", "3"}});
  graph::Schedule s = graph::make_schedule(l.g, l.g.bodies[1]);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> r = guarded_ranges(s);
  // ack: `if m < 0.5 then .. else if n < 0.5 then .. else ..`: the two sides of the outer
  // conditional (its then side, `n + 1`, is one node, the constant folded into it: checked
  // because that lets two Switches leave the schedule), and in the else side the two sides of
  // the inner one.
  ASSERT_EQ(r.size(), 4u);
  int nested = 0;
  for (const auto& [a0, a1] : r)
    for (const auto& [b0, b1] : r)
      nested += (a0 <= b0 && b1 <= a1 && (a0 != b0 || a1 != b1)) ? 1 : 0;
  EXPECT_EQ(nested, 2);
  // Every call site of the entry block is under a guard: a leaf skips them in one jump.
  const graph::Block& entry = s.blocks[s.entry];
  for (std::uint32_t q = entry.first; q < entry.end; ++q) {
    if (s.nodes[q].kind != graph::NodeKind::Call) continue;
    bool covered = false;
    for (const auto& [a0, a1] : r)
      covered = covered || (a0 <= q && q < a1);
    EXPECT_TRUE(covered) << q;
  }
}

TEST(GraphSchedule, SwitchesReadThroughInCheckedRangesLeaveTheSchedule) {
  // tak: `if y < x - 0.5 then tak(tak(..), tak(..), tak(..)) else z`. The then side is a
  // checked range of the entry block, whose nodes read x, y and the control token through
  // their Switches; the outer call, in the block of the inner calls' returns, reads the
  // control token too, and runs only if they were made. Those three Switches leave the
  // schedule. z's stays: the Merge, in a block of its own, reads its else output. The
  // predicate counts the three with its own firing.
  Lowered l = lowered(kTak, {{"x", "12"}, {"y", "8"}, {"z", "4"}});
  const graph::Body& tak = l.g.bodies[1];
  graph::Schedule s = graph::make_schedule(l.g, tak);
  std::uint32_t in_graph = 0, scheduled = 0, elided = 0;
  for (graph::NodeId id = tak.first; id < tak.first + tak.nodes.size(); ++id)
    in_graph += l.g.nodes[id].kind == graph::NodeKind::Switch ? 1 : 0;
  for (const graph::ScheduledNode& n : s.nodes) {
    scheduled += n.kind == graph::NodeKind::Switch ? 1 : 0;
    if (n.kind == graph::NodeKind::Pred) {
      elided += n.elided;
      EXPECT_EQ(n.fires, 1 + n.elided + (n.immediate == graph::kNoImmediate ? 0 : 1));
    }
  }
  EXPECT_EQ(in_graph, 4u);
  EXPECT_EQ(scheduled, 1u);
  EXPECT_EQ(elided, 3u);
  // Without ranges (propagated deadness) every Switch runs.
  graph::Schedule p = graph::make_schedule(l.g, tak, /*with_guards=*/false);
  scheduled = 0;
  for (const graph::ScheduledNode& n : p.nodes)
    scheduled += n.kind == graph::NodeKind::Switch ? 1 : 0;
  EXPECT_EQ(scheduled, 4u);
  // The same result and the same tokens but the dead ones, either way.
  graph::GraphStats se, sp;
  EXPECT_EQ(run_graph(kTak, {{"x", "12"}, {"y", "8"}, {"z", "4"}}, options(), &se), "5");
  EXPECT_EQ(run_graph(kTak, {{"x", "12"}, {"y", "8"}, {"z", "4"}},
                      options(graph::Engine::Static, 1, graph::Deadness::Propagate), &sp),
            "5");
  EXPECT_EQ(se.tokens, sp.tokens - sp.dead_tokens);
}

namespace {

// The folded tails of a schedule (ScheduledNode::side), in block order, and the blocks that
// are a Merge and an Exit and nothing else (the Merges on the output that stayed).
struct Tails {
  std::vector<std::uint32_t> blocks;
  std::vector<const graph::ScheduledNode*> nodes;
  std::vector<std::uint32_t> merge_exit_blocks;
};

Tails tails_of(const graph::Schedule& s) {
  Tails t;
  for (std::uint32_t bi = 0; bi < s.blocks.size(); ++bi) {
    const graph::Block& blk = s.blocks[bi];
    if (blk.end - blk.first == 2 && s.nodes[blk.first].kind == graph::NodeKind::Merge &&
        s.nodes[blk.first + 1].kind == graph::NodeKind::Exit)
      t.merge_exit_blocks.push_back(bi);
    for (std::uint32_t q = blk.first; q < blk.end; ++q) {
      const graph::ScheduledNode& n = s.nodes[q];
      if (n.side == graph::kNoSide) continue;
      EXPECT_EQ(n.kind, graph::NodeKind::Merge);
      for (std::uint32_t r = q + 1; r < blk.end; ++r)  // the block ends with its tails
        EXPECT_NE(s.nodes[r].side, graph::kNoSide);
      EXPECT_GE(n.nin, 2u);  // its value and a predicate per Merge of its chain
      t.blocks.push_back(bi);
      t.nodes.push_back(&n);
    }
  }
  return t;
}

// The merge inputs that blocks tell block `to` of, together.
std::uint32_t told(const graph::Schedule& s, std::uint32_t to) {
  std::uint32_t bits = 0;
  for (const graph::Successor& x : s.successors)
    if (x.block == to) bits |= x.merge_inputs;
  return bits;
}

}  // namespace

TEST(GraphSchedule, MergesOnTheOutputFoldIntoTheBlocksOfTheirInputs) {
  // fib: `if n < 1.5 then 1 else fib(n - 1) + fib(n - 2)`. The Merge on the output and its
  // Exit were a block of their own, run once per activation; now the entry block (the then
  // side) and the block of the addition (the else side) each end with a tail, which fires
  // only on its side of a live predicate. The entry block's tail also sends a bottom
  // predicate, and the Merge's block, told of nothing, never runs.
  Lowered l = lowered(kFib, {{"n", "10"}});
  graph::Schedule s = graph::make_schedule(l.g, l.g.bodies[1]);
  Tails t = tails_of(s);
  ASSERT_EQ(t.nodes.size(), 2u);
  EXPECT_EQ(t.blocks[0], s.entry);
  EXPECT_EQ(t.nodes[0]->side, 0u);
  EXPECT_TRUE(t.nodes[0]->sends_bottom);
  EXPECT_EQ(t.nodes[1]->side, 1u);
  EXPECT_FALSE(t.nodes[1]->sends_bottom);
  ASSERT_EQ(t.merge_exit_blocks.size(), 1u);
  EXPECT_EQ(told(s, t.merge_exit_blocks[0]), 0u);
  // Without ranges (propagated deadness) there is no tail.
  graph::Schedule p = graph::make_schedule(l.g, l.g.bodies[1], /*with_guards=*/false);
  EXPECT_TRUE(tails_of(p).nodes.empty());
  // The same result and the same tokens but the dead ones, either way.
  graph::GraphStats se, sp;
  EXPECT_EQ(run_graph(kFib, {{"n", "15"}}, options(), &se), "987");
  EXPECT_EQ(run_graph(kFib, {{"n", "15"}},
                      options(graph::Engine::Static, 1, graph::Deadness::Propagate), &sp),
            "987");
  EXPECT_EQ(se.tokens, sp.tokens - sp.dead_tokens);
  // A bottom predicate at the bottom of the recursion: the entry block's tail sends it.
  const std::string strict = "def f(x: real): real = if x < 1 then 0 else f(x - 1) + 1;\nf(x)";
  const std::string undefined = run_graph(strict, {{"x", "3"}});
  EXPECT_NE(undefined.find("undefined"), std::string::npos) << undefined;
  EXPECT_EQ(undefined, run_graph(strict, {{"x", "3"}},
                                 options(graph::Engine::Static, 1, graph::Deadness::Propagate)));
  EXPECT_EQ(run_graph(strict, {{"x", "3.5"}}), "3");
}

TEST(GraphSchedule, AMergeWhoseTailsAreInReturnBlocksStillSendsABottomPredicate) {
  // Both sides are calls: the tails end the two return blocks, which do not run whenever the
  // predicate is computed, so neither sends a bottom; the Merge's block is still told of the
  // predicate, and runs only when it is bottom.
  const std::string program =
      "def g(x: real): real = x * 2;\n"
      "def f(x: real): real = if x < 1 then g(x) else g(x + 1);\n"
      "f(x)";
  Lowered l = lowered(program, {{"x", "2"}});
  const graph::Body* f = nullptr;
  for (const graph::Body& b : l.g.bodies)
    if (b.name == "f") f = &b;
  ASSERT_NE(f, nullptr);
  graph::Schedule s = graph::make_schedule(l.g, *f);
  Tails t = tails_of(s);
  ASSERT_EQ(t.nodes.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_NE(t.blocks[i], s.entry);
    EXPECT_FALSE(t.nodes[i]->sends_bottom);
  }
  ASSERT_EQ(t.merge_exit_blocks.size(), 1u);
  EXPECT_EQ(told(s, t.merge_exit_blocks[0]), 1u << 2);
  for (const char* x : {"0.5", "2"}) {
    graph::GraphStats se, sp;
    const std::string v = run_graph(program, {{"x", x}}, options(), &se);
    EXPECT_EQ(v, std::string(x) == "2" ? "6" : "1");
    EXPECT_EQ(run_graph(program, {{"x", x}},
                        options(graph::Engine::Static, 1, graph::Deadness::Propagate), &sp),
              v);
    EXPECT_EQ(se.tokens, sp.tokens - sp.dead_tokens);
  }
  const std::string undefined = run_graph(program, {{"x", "1"}});
  EXPECT_NE(undefined.find("undefined"), std::string::npos) << undefined;
  EXPECT_EQ(undefined, run_graph(program, {{"x", "1"}},
                                 options(graph::Engine::Static, 1, graph::Deadness::Propagate)));
}

TEST(GraphSchedule, AChainOfConditionalsFoldsIntoOneTailPerCall) {
  // ack: `if m < 0.5 then n + 1 else if n < 0.5 then ack(m - 1, 1) else ack(m - 1, ..)`. The
  // Merge on n < 0.5 feeds the tail of the Merge on m < 0.5; it folds too: each tail call's
  // return block is one tail that reads its callee's result and both predicates, and fires
  // when n < 0.5 selects its side and m < 0.5 the else side (bits 0 and 1 of `side`). Such a
  // block passes its callee's result on to its own caller without being queued
  // (Block::tail_only). The inner Merge's block is told of its predicate only: it runs when
  // that is not live.
  Lowered l = lowered(kAck, {{"m", "2"}, {"n", "3"}});
  graph::Schedule s = graph::make_schedule(l.g, l.g.bodies[1]);
  Tails t = tails_of(s);
  std::vector<const graph::ScheduledNode*> chained;
  for (std::size_t i = 0; i < t.nodes.size(); ++i) {
    if (t.nodes[i]->nin != 3) continue;
    chained.push_back(t.nodes[i]);
    const graph::Block& blk = s.blocks[t.blocks[i]];
    EXPECT_TRUE(blk.tail_only);
    EXPECT_EQ(blk.sources, 1u);  // the Return of the tail call
  }
  ASSERT_EQ(chained.size(), 2u);
  EXPECT_EQ(chained[0]->side, 0u | (1u << 1));  // ack(m - 1, 1): n < 0.5 true, m < 0.5 false
  EXPECT_EQ(chained[1]->side, 1u | (1u << 1));  // ack(m - 1, ack(m, n - 1))
  std::uint32_t inner_merges = 0;
  for (std::uint32_t bi = 0; bi < s.blocks.size(); ++bi) {
    const graph::Block& blk = s.blocks[bi];
    if (!blk.merge || blk.end - blk.first != 2 || s.nodes[blk.first + 1].side == graph::kNoSide)
      continue;
    ++inner_merges;
    EXPECT_EQ(told(s, bi), 1u << 2);
  }
  EXPECT_EQ(inner_merges, 1u);
  // The same results and tokens (but the dead ones) as without tails, on every engine; a
  // bottom inner predicate (n = 0.5 is a tie of `<`), at the top and two calls down.
  const std::string tie =
      "def f(p: real * real): real = let (m: real, n: real) = p in\n"
      "  if m < 0.5 then n else if n < 0.5 then f(m - 1, 1) else f(m - 1, n - 1);\n"
      "f(m, n)";
  const std::vector<std::tuple<std::string, test::Env, std::string>> cases = {
      {kAck, {{"m", "2"}, {"n", "3"}}, "9"},
      {kAck, {{"m", "3"}, {"n", "2"}}, "29"},
      {tie, {{"m", "3"}, {"n", "4"}}, "1"},
      {tie, {{"m", "1"}, {"n", "0.5"}}, "undefined"},
      {tie, {{"m", "3"}, {"n", "2.5"}}, "undefined"},
  };
  for (const auto& [program, env, expected] : cases) {
    graph::GraphStats sp;
    const std::string propagated =
        run_graph(program, env, options(graph::Engine::Static, 1, graph::Deadness::Propagate), &sp);
    EXPECT_EQ(propagated.substr(0, expected.size()), expected);
    for (graph::Engine e : {graph::Engine::Static, graph::Engine::Dynamic}) {
      for (unsigned threads : {1u, 2u}) {
        graph::GraphStats se;
        const std::string v =
            run_graph(program, env, options(e, threads, graph::Deadness::Elide), &se);
        EXPECT_EQ(v, propagated);
        if (threads == 1 && expected != "undefined") {
          EXPECT_EQ(se.tokens, sp.tokens - sp.dead_tokens);
        }
      }
    }
  }
}

TEST(GraphSchedule, AChainOfThreeConditionalsFoldsIntoOneTail) {
  // Three Merges on the output: the tail of the call reads three predicates; the constant's
  // side of the innermost conditional (computed by the entry block) gets one too.
  const std::string program =
      "def f(x: real): real =\n"
      "  if x < 0.5 then 1 else if x < 1.5 then 2 else if x < 2.5 then f(x - 2) else f(x - 1);\n"
      "f(x)";
  Lowered l = lowered(program, {{"x", "7"}});
  graph::Schedule s = graph::make_schedule(l.g, l.g.bodies[1]);
  std::uint32_t longest = 0;
  for (const graph::ScheduledNode* n : tails_of(s).nodes)
    longest = std::max(longest, n->nin);
  EXPECT_EQ(longest, 4u);
  for (const char* x : {"7", "1", "2", "3.25", "2.5"}) {
    graph::GraphStats se, sp;
    const std::string v = run_graph(program, {{"x", x}}, options(), &se);
    EXPECT_EQ(v, run_graph(program, {{"x", x}},
                           options(graph::Engine::Static, 1, graph::Deadness::Propagate), &sp));
    if (v.find("undefined") == std::string::npos) {
      EXPECT_EQ(se.tokens, sp.tokens - sp.dead_tokens);
    }
  }
  EXPECT_EQ(run_graph(program, {{"x", "7"}}), "1");
  EXPECT_EQ(run_graph(program, {{"x", "1"}}), "2");
  const std::string tie = run_graph(program, {{"x", "4.5"}});  // f(2.5): a tie of x < 2.5
  EXPECT_NE(tie.find("undefined"), std::string::npos) << tie;
}

TEST(GraphSchedule, DeeplyNestedConditionalsAreNestedRanges) {
  // `if x < 0.5 then x * 0 else if x < 1.5 then x * 1 else ...`, 300 deep: each side of each
  // conditional is a range, each else side holding the next conditional (the then sides, and
  // the last else, are one node each, too short for a range for their own sake, but checking
  // them lets the Switches of x leave the schedule: SwitchElision); the layout is iterative and
  // linear in the block (4000 deep takes milliseconds).
  const int depth = 300;
  std::string body;
  for (int i = 0; i < depth; ++i)
    body += "if x < " + std::to_string(i) + ".5 then x * " + std::to_string(i) + " else ";
  body += "x + 1";
  const std::string program = "def f(x: real): real = " + body + ";\nf(x)";
  Lowered l = lowered(program, {{"x", "0.2"}});
  graph::Schedule s = graph::make_schedule(l.g, l.g.bodies[1]);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> r = guarded_ranges(s);
  ASSERT_EQ(r.size(), 2u * depth);
  // The ranges with the most ranges inside: the else side of the outermost conditional.
  std::size_t deepest = 0;
  for (const auto& [a0, a1] : r) {
    std::size_t inside = 0;
    for (const auto& [b0, b1] : r)
      inside += (a0 <= b0 && b1 <= a1 && (a0 != b0 || a1 != b1)) ? 1 : 0;
    deepest = std::max(deepest, inside);
  }
  EXPECT_EQ(deepest, 2u * (depth - 1u));
  for (const char* x : {"0.2", "7", "299.7", "1000"}) {
    graph::GraphOptions elide = options(), propagate = options();
    propagate.deadness = graph::Deadness::Propagate;
    std::string want = run_graph(program, {{"x", x}}, propagate);
    EXPECT_EQ(run_graph(program, {{"x", x}}, elide), want) << x;
  }
  EXPECT_EQ(run_graph(program, {{"x", "7"}}), "49");
  EXPECT_EQ(run_graph(program, {{"x", "1000"}}), "1001");
}

TEST(GraphUndefined, InfiniteRecursionRunsOutOfFuel) {
  graph::GraphOptions o = options();
  o.eval.fuel = 1000;
  std::string r = run_graph("def f(x: real): real = f(x + 1);\nf(0)", {}, o);
  EXPECT_EQ(r, "undefined (out of fuel): out of fuel after 1000 function calls in 'f' at 1:24");
}

TEST(GraphUndefined, MaxFramesIsReported) {
  graph::GraphOptions o = options();
  o.max_frames = 100;
  std::string r =
      run_graph("def down(n: real): real = if n < 0.5 then 0 else 1 + down(n - 1);\ndown(n)",
                {{"n", "1000"}}, o);
  EXPECT_NE(r.find("more than 100 activations are live at once"), std::string::npos) << r;
  EXPECT_EQ(r.substr(0, 11), "undefined (");
  EXPECT_EQ(run_graph("def down(n: real): real = if n < 0.5 then 0 else 1 + down(n - 1);\ndown(n)",
                      {{"n", "90"}}, o),
            "90");
}

// A block makes its calls in evaluation order, and at one thread the first call's subtree runs
// before the next call: where the left operand goes undefined in a few calls and the right one
// never ends, the graph reports the left one's undefinedness, as sequential evaluation does,
// not the fuel the right one runs out of.
TEST(GraphUndefined, ALeftOperandIsUndefinedBeforeTheRightRunsOutOfFuel) {
  const char* program =
      "def bad(n: real): real = if n < 0.5 then log(n) else bad(n - 1);\n"
      "def loop(x: real): real = 1 + loop(x + 1);\n"
      "bad(2) + loop(0)";
  for (graph::Engine e : {graph::Engine::Static, graph::Engine::Dynamic}) {
    graph::GraphOptions o = options(e);
    o.eval.fuel = 1000;
    EXPECT_EQ(run_graph(program, {}, o),
              "undefined (operator outside its domain): log(x) is undefined at x = 0 at 1:42");
  }
}

TEST(GraphUndefined, MaxFramesBeyondTwoToThe63IsNoLimit) {
  for (unsigned threads : {1u, 2u}) {
    graph::GraphOptions o = options(graph::Engine::Static, threads);
    o.max_frames = std::uint64_t(1) << 63;
    EXPECT_EQ(run_graph(kFib, {{"n", "10"}}, o), "89");
    o.max_frames = UINT64_MAX;
    EXPECT_EQ(run_graph(kFib, {{"n", "10"}}, o), "89");
  }
}

TEST(GraphLowering, ProgramWithoutFunctionsIsOneBody) {
  Lowered l = lowered("let p: real * real = (x, 2) in fst p * snd p + sin(x)", {{"x", "3"}});
  EXPECT_EQ(l.g.bodies.size(), 1u);
  EXPECT_TRUE(l.g.sites.empty());
  EXPECT_EQ(
      run_graph("let p: real * real = (x, 2) in fst p * snd p + sin(x)", {{"x", "3"}}),
      test::run<double>("let p: real * real = (x, 2) in fst p * snd p + sin(x)", {{"x", "3"}}));
}

TEST(GraphLowering, EachBodyOnceAndEachCallSiteNumbered) {
  Lowered l = lowered(kTak, {{"x", "1"}, {"y", "2"}, {"z", "3"}});
  ASSERT_EQ(l.g.bodies.size(), 2u);  // main and tak, each once
  EXPECT_EQ(l.g.sites.size(), 5u);   // main's call and tak's four
  for (const graph::CallSite& s : l.g.sites) {
    EXPECT_EQ(s.calls.size(), 4u);    // one per argument scalar and the control token
    EXPECT_EQ(s.returns.size(), 1u);  // one per output
  }
}

// The verifier (run after every lowering in the tests) finds an edge that only one of its ends
// lists, a consumer listed twice, and a consumer listed by a port it does not read.
TEST(GraphLowering, TheVerifierFindsAsymmetricEdges) {
  const Lowered l = lowered(kFib, {{"n", "3"}});
  EXPECT_NO_THROW(graph::verify(l.g));
  graph::NodeId reader = graph::kNoNode;
  for (graph::NodeId id = 0; id < l.g.nodes.size() && reader == graph::kNoNode; ++id)
    if (l.g.nodes[id].kind == graph::NodeKind::Add) reader = id;
  ASSERT_NE(reader, graph::kNoNode);
  const graph::Port p = l.g.nodes[reader].inputs[0];
  auto broken = [&](auto change) {
    graph::Graph g = l.g;
    change(g.nodes[p.node].outputs[p.index]);
    try {
      graph::verify(g);
    } catch (const InternalError& e) {
      return std::string(e.what());
    }
    return std::string("verified");
  };
  auto is_reader = [&](const graph::Dest& d) { return d.node == reader && d.input == 0; };
  EXPECT_NE(broken([&](std::vector<graph::Dest>& ds) {
              ds.erase(std::find_if(ds.begin(), ds.end(), is_reader));
            }).find("has no matching edge"),
            std::string::npos);
  EXPECT_NE(broken([&](std::vector<graph::Dest>& ds) {
              ds.push_back(*std::find_if(ds.begin(), ds.end(), is_reader));
            }).find("lists a consumer twice"),
            std::string::npos);
  EXPECT_NE(broken([&](std::vector<graph::Dest>& ds) {
              std::find_if(ds.begin(), ds.end(), is_reader)->input = 1;
            }).find("lists a consumer that does not read it"),
            std::string::npos);
}

TEST(GraphRd, DerivativesAndRecursionThroughRd) {
  EXPECT_EQ(run_graph("1.rd[1](x: real. x * 1.rd[1](y: real. x + y))"), "1");
  const char* pow =
      "def pow(p: real * real): real = let (x: real, n: real) = p in\n"
      "  if n < 0.5 then 1 else x * pow(x, n - 1);\n"
      "grad[x](y: real. pow(y, 3))";
  EXPECT_EQ(run_graph(pow, {{"x", "2"}}), "12");
  EXPECT_EQ(run_graph(pow, {{"x", "2"}}, options(graph::Engine::Dynamic, 2)), "12");
}

TEST(GraphDot, Golden) {
  test::expect_golden("graph/fib.dot", graph::to_dot(lowered(kFib, {{"n", "1"}}).g));
  test::expect_golden("graph/mutual.dot", graph::to_dot(lowered(kMutual, {{"n", "1"}}).g));
  test::expect_golden(
      "graph/nested_if.dot",
      graph::to_dot(lowered("if x < 0 then 0 else if x < 1 then x * x else 1", {{"x", "2"}}).g));
}

RC_GTEST_PROP(GraphAgrees, WithTheCompiledEvaluatorBitForBit, ()) {
  gen::GeneratedProgram p = *gen::program(gen::GenConfig{});
  std::vector<std::pair<Name, Type>> inputs;
  std::vector<Value<double>> values;
  test::graph_inputs(p, inputs, values);
  checker::CheckConfig config;
  checker::Outcome o = checker::graph_agrees_on(p.term, inputs, values, config);
  RC_ASSERT(o.verdict != checker::Verdict::Fail);
}

}  // namespace
}  // namespace adlang

namespace adlang {
namespace {

std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(GraphCommand, TypeErrorIsAClearCompileError) {
  GraphCommandOptions o;
  o.file = temp_file("graph_type_error.ad", "def f(x: real): real = (x, x);\nf(1)\n");
  std::ostringstream out, err;
  EXPECT_EQ(graph_command(o, out, err), 3);
  EXPECT_NE(err.str().find("error"), std::string::npos) << err.str();
}

TEST(GraphCommand, SvgAndPngByGraphviz) {
  for (const char* format : {"svg", "png"}) {
    GraphCommandOptions o;
    o.file = temp_file("graph_fib.ad", kFib);
    o.env = {"n=3"};
    o.format = format;
    o.output = ::testing::TempDir() + "graph_fib." + format;
    o.stats = true;
    std::ostringstream out, err;
    ASSERT_EQ(graph_command(o, out, err), 0) << err.str();
    std::string picture = test::read_file(o.output);
    EXPECT_GT(picture.size(), 1000u);
    if (std::string(format) == "svg") {
      EXPECT_NE(picture.find("Call_2"), std::string::npos);
    } else {
      EXPECT_EQ(picture.substr(1, 3), "PNG");
    }
    EXPECT_NE(out.str().find("peak live frames: "), std::string::npos) << out.str();
  }
}

// Without -o the picture goes to standard output (as Graphviz's dot does), the stats to error.
TEST(GraphCommand, SvgAndPngToStandardOutput) {
  for (const char* format : {"svg", "png"}) {
    GraphCommandOptions o;
    o.file = temp_file("graph_fib_stdout.ad", kFib);  // its own file: ctest runs tests at once
    o.env = {"n=3"};
    o.format = format;
    o.stats = true;
    std::ostringstream out, err;
    ASSERT_EQ(graph_command(o, out, err), 0) << err.str();
    if (std::string(format) == "svg") {
      EXPECT_EQ(out.str().rfind("<?xml", 0), 0u);
      EXPECT_NE(out.str().find("Call_2"), std::string::npos);
    } else {
      EXPECT_EQ(out.str().substr(1, 3), "PNG");
    }
    EXPECT_NE(err.str().find("peak live frames: "), std::string::npos) << err.str();
  }
}

TEST(GraphCommand, RunRefusesOtherPrecisionsAndReportsMaxFrames) {
  RunCommandOptions o;
  o.file = temp_file("graph_down.ad",
                     "def down(n: real): real = if n < 0.5 then 0 else 1 + down(n - 1);\ndown(n)");
  o.env = {"n=500"};
  o.engine = RunEngine::Graph;
  o.max_frames = 50;
  std::ostringstream out, err;
  EXPECT_EQ(run_command(o, out, err), 1);
  EXPECT_NE(err.str().find("--max-frames"), std::string::npos) << err.str();
  o.precision = Precision::Digits50;
  std::ostringstream out2, err2;
  EXPECT_EQ(run_command(o, out2, err2), 2);
  EXPECT_NE(err2.str().find("double precision"), std::string::npos) << err2.str();
}

}  // namespace
}  // namespace adlang
