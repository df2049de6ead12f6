// The executor of tagged tokens (thesis Secs. 3.2, 5.3; docs/graph.md).
//
// A token carries a tag: the frame of the activation it belongs to. Frames are O(1) handles
// (parent frame + call site, as TensorFlow names its frames and as the Monsoon machine kept
// activation frames): Call_i makes or finds the child frame (t/i) in an array slot of the
// parent frame, Return_i goes back to the parent (t/i -> t), so no tag list is ever copied.
// A node instance fires when all its inputs with the same tag have arrived. The matching of
// (node, tag) is resolved once per body where it can be (semantics/graph/schedule.hpp: the
// nodes that wait for the same asynchronous events form a block and fire in a fixed order,
// as in Culler's Threaded Abstract Machine), and at run time, in the frame, where it cannot:
// a pending count per block, decremented by the blocks that compute its inputs, the return
// of a call site, or the arguments' arrival. A frame is freed when its outputs have left, its
// blocks have run and its children are freed, so memory is bounded by the live activations.
//
// Tokens are live (a double), dead (the untaken side of a Switch, Sec. 3.2), or bottom: the
// paper's undefinedness, carrying its reason, location and the place in the program's
// left-to-right evaluation order where it arose. A strict node forwards the earliest bottom
// among its inputs, so the reported undefinedness is the one the sequential evaluators report,
// independently of the order in which nodes fire.
//
// With --threads N, each worker runs its own blocks depth first; a worker without blocks asks
// another, which hands over its oldest block (private deques: no fences on the owner's side).
//
// Engines: Static runs the static graph; Dynamic is TensorFlow's approach (the baseline of
// the thesis's Sec. 6): every call instantiates a fresh copy of the callee's body (its
// schedule), which is freed after the return; everything else is the same code.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "lang/name.hpp"
#include "semantics/eval_context.hpp"
#include "semantics/graph/graph.hpp"
#include "semantics/graph/schedule.hpp"
#include "semantics/value.hpp"

namespace adlang::graph {

enum class Engine { Static, Dynamic };

// How the untaken side of a conditional is handled (docs/graph.md).
enum class Deadness {
  // Sec. 3.2 literally: the untaken branch receives dead tokens, every node in it forwards
  // them, a dead control Call sends them to its Returns (Sec. 5.4.6), and the Merge waits
  // for the dead input.
  Propagate,
  // The same outcome without the traffic: a Switch sends nothing to its untaken side, and the
  // Merge, on reading a live predicate, counts the untaken input as arrived dead. Sound
  // because a branch's only way out is its Merges (every value entering it passes a Switch),
  // and frames live by their tokens, not by the nodes still to fire.
  Elide,
};

// A bound on one run (0: none), for the checker's graph properties, which give every program
// one: the run's wall-clock time, and how far resident memory grows above what it was at the
// run's first poll. Polled at calls (every 256th, per worker), like --timeout and --max-memory;
// exceeding it ends the run with RunBoundExceeded, as an exhausted budget does.
struct RunBound {
  double seconds = 0;
  std::uint64_t memory_growth_bytes = 0;
};

class RunBoundExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct GraphOptions {
  Engine engine = Engine::Static;
  unsigned threads = 1;
  Deadness deadness = Deadness::Elide;
  // Live frames allowed at once (--max-frames); exceeding it is undefined (Depth).
  std::uint64_t max_frames = 4'000'000;
  // Fuel (counted per Call firing), predicates, and what Rd nodes need.
  EvalOptions eval;
  // The graph's schedule for this `deadness` (make_graph_schedule), made once for several
  // runs; null: the run makes it.
  const GraphSchedule* schedule = nullptr;
  RunBound bound;
};

struct GraphStats {
  std::uint64_t frames_created = 0;
  std::uint64_t peak_live_frames = 0;
  std::uint64_t tokens = 0;         // node firings
  std::uint64_t dead_tokens = 0;    // firings on dead tokens
  std::uint64_t calls = 0;          // Call firings that entered a callee (fuel used)
  std::uint64_t bodies_copied = 0;  // Dynamic: body instances made
  // Threads: the run's workers (GraphOptions::threads), and how many took part (worker 0
  // brings in the others when it holds work to hand over: work_stealing.hpp).
  std::uint32_t workers = 1, workers_taking_part = 1;
  // Reverse mode (docs/graph-ad.md): values saved by forward activations for their adjoints.
  std::uint64_t saved_values = 0;       // Saves fired
  std::uint64_t peak_saved_values = 0;  // most held at once
  std::uint64_t peak_saved_bytes = 0;   // the store's memory then (values and tags)
};

// Runs `g` on the program inputs (one value per g.program_inputs entry). Returns the value of
// the main body; throws Undefined (the earliest in evaluation order) when it is undefined.
Value<double> run_graph(const Graph& g, const std::vector<Value<double>>& inputs,
                        const GraphOptions& options, NameSupply& names,
                        GraphStats* stats = nullptr);

}  // namespace adlang::graph
