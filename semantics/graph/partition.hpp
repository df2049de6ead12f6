// Partitioning of the tagged graph for distributed execution (thesis Sec. 5.4, Fig. 5.5,
// Appendix B; docs/graph-partition.md gives the rules and what we completed).
//
// Given a placement (semantics/graph/placement.hpp), each partition holds:
// - its placed nodes; the Calls of a call site are one Site node (Sec. 5.2.1's Call_i group);
// - Send/Recv pairs for the edges cut by the placement (Sec. 5.4.4), one channel per producer
//   port and destination partition (and, for a body's output, per call site it returns to);
//   a message carries its token (live, dead or bottom) and the name of its frame at the
//   destination;
// - the control-recursion state machine (Sec. 5.4.3: the Call, Switch and Merge nodes that
//   steer a function, Return excluded) of every function the partition needs: a function it
//   holds nodes of, and every function that calls one it needs. In our graph that machine is
//   the body's control input Merge, the Switches that route the control token into branches,
//   and the control Call of each call site whose callee the partition needs. Nodes placed on
//   the partition are their own copy;
// - the predicates of the copied Switches, received from the partition that computes them
//   (Sec. 5.4.7), and, for a copied control Call, the call site's admission (whether the call
//   was entered: a call by value is not entered when its argument is bottom, or when the fuel
//   or frame budget refuses it), sent by the partition that holds the site;
// - a Recv fires in a frame only when the state machine has reached that frame: its trigger is
//   the control input Merge of its body (Sec. 5.4.7, "every state machine's Merge operator is
//   connected via control edges to all the Receive operators"), or, for a callee's output, the
//   call site's entry into the callee;
// - the main body's state machine is started on every partition that needs it by the dummy
//   constant of Sec. 5.4.7 (a live token on the control input of the main frame).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "semantics/graph/graph.hpp"

namespace adlang::graph {

enum class PartKind {
  Node,      // a node of the graph placed here (not a Call: see Site)
  Site,      // the Calls of one call site placed here: arguments..., control
  Copy,      // a state-machine node (control input Merge, control Switch) copied here
  SiteCopy,  // a control Call copied here: (control, admission) -> callee's control
  Send,      // a token to another partition
  Recv,      // (trigger) -> a token from another partition
};

const char* to_string(PartKind k);

// How a token's tag changes along an edge (Sec. 5.2.1): unchanged; Call_i: t -> t/i;
// a body's output to Return_i: t/i -> t, and only when the tag's last call site is i.
// Match: the trigger of a Recv for Call_i's argument: the token when the tag's last call site
// is i, else a dead token (no message will come in that frame).
enum class TagRule : std::uint8_t { Same, Push, Pop, Match };

struct PartDest {
  std::uint32_t node;
  std::uint32_t input;
  TagRule rule = TagRule::Same;
  std::uint32_t site = 0;  // Push, Pop: the call site (global index)
};

struct PartNode {
  PartKind kind = PartKind::Node;
  std::uint32_t body = 0;                  // the body whose frames it fires in
  NodeId orig = kNoNode;                   // Node, Copy: the graph node; Send: the producer's node
  std::uint32_t site = 0;                  // Site, SiteCopy: the call site (global index)
  std::uint32_t channel = 0;               // Send, Recv
  std::vector<std::uint32_t> input_ports;  // per input: the producer's output port (local)
  std::vector<std::uint32_t> input_nodes;  // per input: the producer (local node index)
  std::vector<std::vector<PartDest>> outputs;
  std::uint32_t num_inputs() const { return static_cast<std::uint32_t>(input_nodes.size()); }
};

// A Site's outputs: one per Call (arguments, then control), then these two.
inline std::uint32_t site_admission_port(const CallSite& s) {
  return static_cast<std::uint32_t>(s.calls.size());
}
inline std::uint32_t site_entered_port(const CallSite& s) {
  return static_cast<std::uint32_t>(s.calls.size()) + 1;
}

// A cut edge: the Send on `from` and the Recv on `to`.
struct Channel {
  std::uint32_t from, to;           // partitions
  std::uint32_t send, recv;         // node indices in those partitions
  NodeId producer = kNoNode;        // the graph node whose output it carries (kNoNode: admission)
  std::uint32_t port = 0;           // its output port
  std::uint32_t site = UINT32_MAX;  // admission, a Call's argument, or a body output: the site
  TagRule rule = TagRule::Same;     // applied by the Send
  std::string what;                 // for pictures and statistics
};

struct Partition {
  std::uint32_t rank = 0;
  std::vector<PartNode> nodes;
  std::vector<std::uint8_t> needs;                  // per body: its state machine is here
  std::vector<std::uint32_t> control;               // per needed body: its control Merge node
  std::vector<std::uint32_t> nodes_per_body;        // per body: nodes here that fire in it
  std::vector<std::vector<std::uint32_t>> returns;  // per site held here: its Returns
  std::vector<std::uint32_t> main_exits;            // per output of main held here: node
  std::vector<std::uint32_t> main_exit_index;       // ... and which output it is
  std::vector<std::uint32_t> main_inputs;           // per scalar input of main held here
  std::vector<std::uint32_t> main_input_index;
};

struct Partitioned {
  const Graph* graph = nullptr;
  std::vector<std::uint32_t> rank_of;    // per graph node
  std::vector<std::uint32_t> site_rank;  // per call site
  std::vector<Partition> parts;
  std::vector<Channel> channels;
  std::vector<std::uint8_t> state_machine;  // per graph node: part of its body's state machine
};

// Partitions `g` by `rank_of` (one entry per node, each below `ranks`, the Calls and Returns
// of a call site together: graph::unite_call_sites); InternalError otherwise.
Partitioned partition_graph(const Graph& g, const std::vector<std::uint32_t>& rank_of,
                            std::uint32_t ranks);

// Checks the partitioning's invariants (every input wired, Send/Recv paired, each Recv
// triggered, every needed body's machine present); throws InternalError on a violation.
void verify(const Partitioned& p);

// The partitions drawn as Graphviz clusters, with the Send/Recv pairs and the copied state
// machines (adlang graph --partitions N).
std::string to_dot(const Partitioned& p);

}  // namespace adlang::graph
