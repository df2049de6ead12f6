// A body's static schedule: its nodes grouped into blocks, the unit the executor runs
// (docs/graph.md, "Blocks"). This is how a dataflow graph is run on a stock processor since
// Culler et al.'s Threaded Abstract Machine (TAM, 1991): the matching of tokens by (node,
// tag) is resolved at compile time wherever the order of two firings is fixed, and done at
// run time only where it is not.
//
// Within one activation, a node can only wait for a few kinds of asynchronous event: the
// activation's entry (its arguments have arrived), the return of one of its call sites, and
// a Merge whose inputs are computed by different events (the taken side is known only at run
// time). The set of such events a node depends on, transitively, decides its block: every
// node with the same set is in the same block, in a topological order of the body. A block
// runs, in the frame of the activation, once the blocks computing its inputs have run (a
// pending count per block in the frame); a Merge whose three inputs are in one block is a
// selection inside that block, the others head their own block and count their inputs as
// the old per-node executor did, including the untaken input of a live predicate
// (Deadness::Elide). The Calls of one call site are one node, in the block where all their
// inputs are known: the callee is entered only when every Call has arrived anyway.
//
// Nodes keep their firing rules (graph.hpp); a block applies them in order, each node reading
// its inputs from the frame's output slots of the nodes that produce them. A node of a block
// that receives no token (the untaken side of a Switch) writes "absent" to its outputs.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "semantics/graph/graph.hpp"

namespace adlang::graph {

inline constexpr std::uint32_t kNoGuard = std::numeric_limits<std::uint32_t>::max();

// A guarded range of a block: the nodes that can receive tokens only through side `side` of
// the Switches that read the predicate in slot `pred`, directly or through other nodes of the
// range (docs/graph.md, "The untaken side in one jump"). Under Deadness::Elide, when the
// predicate is not live or selects the other side, every node of the range would write
// "absent": the block writes it only to the range's outputs that nodes outside the range read,
// and jumps to `end`. Ranges are nested or disjoint.
struct Guard {
  std::uint32_t pred = 0;
  std::uint32_t side = 0;  // 0: the Switch's output 0, taken when the predicate is true
  std::uint32_t end = 0;   // the range is Schedule::nodes[(the node carrying it) .. end)
  std::uint32_t exports = 0, exports_end = 0;  // Schedule::exported[exports .. exports_end)
  std::uint32_t next = kNoGuard;  // a range nested in this one starting at the same node
};

inline constexpr std::uint8_t kNoImmediate = 0xFF;
inline constexpr std::uint8_t kNoSide = 0xFF;
// A folded tail reads at most this many predicates (one per Merge of its chain): its sides are
// the bits of a byte that is then not kNoSide.
inline constexpr std::uint32_t kMaxTailPredicates = 7;

// A node as a block runs it.
//
// A constant read by one node only, of the same block and range, is folded into it: the
// reader's input `immediate` reads the constant's own input (its control token, whose state
// the constant's token has: live, dead, bottom or absent) with `value` in place of the token's
// value, and the reader counts the constant's firing (`fires`). What every node computes and
// counts is unchanged; a block runs one node fewer per constant.
struct ScheduledNode {
  NodeKind kind;
  OpKind op = OpKind::Neg;  // Op: its operator (the executor's fast path)
  // Const: none; Add, Op, Pred: the input folded from a constant, or kNoImmediate.
  std::uint8_t immediate = kNoImmediate;
  // The node's firings when it fires: 2 with a folded constant, plus the Switches elided into
  // it. (Stored, though `immediate` and `elided` say it: derived in the executor's loop, it
  // cost 0.6% more instructions on tak, 1% on primes.)
  std::uint8_t fires = 1;
  // Pred: the Switches on its output that left the schedule (schedule.cpp, SwitchElision),
  // whose firings it counts with its own (they are in `fires`).
  std::uint8_t elided = 0;
  std::uint8_t pred = 0;            // Pred: its PredKind (the executor's fast path)
  std::uint32_t nin = 0, nout = 0;  // (32 bits: a gradient of 10^5 inputs has a Call of as many)
  std::uint32_t in = 0;             // its input slots: Schedule::inputs[in .. in + nin)
  std::uint32_t out = 0;            // its output slots: out .. out + nout
  std::uint32_t pos = 0;            // its place in the body's evaluation order (graph.hpp)
  std::uint32_t index = 0;
  // Call: the call site (global). A site's Calls are one node, with one input per Call
  // (arguments, then control), in the block of all their inputs' events (see below).
  std::uint32_t site = 0;
  double value = 0;  // Const, BoolConst; the folded constant's value (`immediate`)
  const Node* info = nullptr;
  std::uint32_t guard = kNoGuard;  // the outermost range starting here (Schedule::guards)
  // kNoSide, or (kind Merge) a folded tail (schedule.cpp, fold_merge_tails): it stands for a
  // Merge on the body's output and the Exit reading it, on the Merge's side `side` (0: the
  // predicate true). It reads that side's input and the Merge's predicate, and fires as the
  // Exit, counting the Merge's firing and its own, only when the predicate is live and
  // selects `side`; with `sends_bottom`, also when the predicate is bottom (or dead), sending
  // it, as the Merge would (the Merge's block then never runs). A tail of a chain of Merges
  // (nin > 2) reads a predicate per Merge, innermost first, and fires only when each is live
  // and selects its side: bit j of `side` for the predicate in input j + 1.
  std::uint8_t side = kNoSide;
  bool sends_bottom = false;
};

// A block signals each successor when it has run. A Merge block counts its inputs instead:
// `merge_inputs` has bit i set for each input i of the Merge that the signalling block computes.
// The rest repeats what the executor reads of the successor on each signal.
struct Successor {
  std::uint32_t block;
  std::uint32_t merge_inputs = 0;            // 0 for an ordinary successor
  std::int32_t pending = 0;                  // the block's Block::pending
  bool empty = false;                        // the block has no node to run (Block::first == end)
  std::uint32_t merge_slots[3] = {0, 0, 0};  // the Merge's input slots (merge_inputs != 0)
};

struct Block {
  std::uint32_t first = 0, end = 0;      // its nodes: Schedule::nodes[first .. end)
  std::int32_t pending = 0;              // signals it waits for in a fresh frame
  std::uint32_t succ = 0, succ_end = 0;  // Schedule::successors[succ .. succ_end)
  bool merge = false;                    // headed by a Merge whose inputs are in other blocks
  // Its InputMerge and Return nodes: they only pass on the token the caller's Call or the
  // callee's Exit wrote into their slot, so they are counted (one firing each) but not run.
  std::uint32_t sources = 0;
  // Its one node is a folded tail, and it has no successor: a return block that only passes
  // its callee's result on to its own caller (tak's outer call, ack's two tail calls), which
  // the executor runs at the callee's Exit instead of queueing it.
  bool tail_only = false;
};

struct Schedule {
  std::vector<ScheduledNode> nodes;  // by block, each block in a topological order
  std::vector<std::uint32_t> inputs;
  std::vector<Block> blocks;
  std::vector<Successor> successors;
  std::uint32_t num_slots = 0;  // output slots of a frame of this body
  std::uint32_t entry = 0;      // the block the activation's entry starts
  // Per local call site: the block its return starts, and the output slot of its Return_k.
  std::vector<std::uint32_t> return_block;
  std::vector<std::vector<std::uint32_t>> return_slots;
  std::vector<std::uint32_t> input_slots;  // per body input (arguments, then control)
  std::uint32_t exits = 0;                 // outputs of the body
  std::vector<Guard> guards;
  std::vector<std::uint32_t> exported;  // the guards' exported slots
};

// The schedule of body `b` of `g`; with `with_guards`, the untaken side of a conditional is a
// range to jump over (Guard: for Deadness::Elide; a block's nodes are then reordered, which
// changes the order of independent calls, and so the peak of live frames and which call a
// budget refuses). Without, every block keeps the body's topological order.
Schedule make_schedule(const Graph& g, const Body& b, bool with_guards = true);

// The schedules of every body of a graph, for one way of handling deadness (`with_guards`:
// Deadness::Elide): what the executor runs. Made once per graph and shared by its runs
// (GraphOptions::schedule), as TensorFlow initialises an executor once per graph and runs it
// at every step; the executor makes its own when given none.
struct GraphSchedule {
  const Graph* graph = nullptr;
  std::size_t nodes = 0;  // the graph's then (a graph lowered again in its place is another)
  bool with_guards = true;
  std::vector<Schedule> bodies;  // by body
};

GraphSchedule make_graph_schedule(const Graph& g, bool with_guards = true);

}  // namespace adlang::graph
