// The tagged static dataflow graph (thesis, seed 004, Secs. 3-5): the IR that
// semantics/graph/lower.hpp produces from the typed core IR and semantics/graph/executor.hpp runs.
//
// Every function body appears once (Sec. 4.2, Yaghi's transformation); the main term is the
// entry body. Values of type T travel as |T| scalar edges (tuples split, Sec. 5.2.1). A call
// site i is a group of Call_i nodes, one per argument scalar plus one for the control token,
// and Return_i nodes, one per output (Sec. 5.2.1); the callee's inputs are InputMerge nodes
// over its call sites (Sec. 4.2). `if` is Switch/Merge on the predicate with deadness
// (Sec. 3.2). Node kinds, their inputs and outputs, and their firing rule:
//
//   Const      ctl                 -> r          the literal r (or the literal's range error)
//   BoolConst  ctl                 -> b          true / false (as 1 / 0)
//   Add        a, b                -> a + b      the built-in addition (range-checked)
//   Op         x_1..x_|T|          -> y_1..y_|U| ev(op, x) (Sec. 3), bottom off its domain
//   Pred       a, b                -> b          bev(pred, (a, b)), bottom where undefined
//   Switch     d, p                -> d_t, d_f   d on the taken side, a dead token on the other
//   Merge      t, e, p             -> v          the input p selects (the other one is dead);
//                                                bottom if p is bottom (see docs/graph.md)
//   InputMerge (one per call site) -> v          a function's input: whatever arrives (one
//                                                call site per frame, so one token)
//   Call       v                   -> (callee)   Call_i: tag t becomes t/i (a child frame)
//   Return     (callee output)     -> v          Return_i: tag t/i becomes t; control edge
//                                                from the site's control Call (Sec. 5.4.6)
//   Exit       v                   -> (caller)   a body's output k, to Return_i of the site
//                                                the tag ends in
//   Sync       c_1..c_n            -> c          strictness: all inputs defined (see below)
//   Gate       v, c                -> v          v, unless c is bottom
//   Rd         w, l, free vars, ctl -> r_1..     W.rd_V(x:T. N) by symbolic evaluation and the
//                                                linear R (host side; --rd host)
//   Save       v                   -> v          v, after keeping it in the store under
//                                                (slot, tag) (docs/graph-ad.md)
//   Load       ctl                 -> v          takes the value stored under (slot, tag);
//                                                0 when nothing was stored there
//
// Reverse mode (semantics/graph/adjoint.hpp, docs/graph-ad.md): W.rd_V(x:T. N) is lowered to
// two call sites of the same tag, one entering the forward body of N (which saves what the
// adjoints need) and one entering its adjoint body. A tagged call site's callee frame has a
// tag in the store: the tag of its caller extended by the site's `mirror` (the forward site
// it is the adjoint of, or itself), so an adjoint activation reads what the forward
// activation of the same tag saved.
//
// Call-by-value strictness: the paper's semantics is strict, so a value computed and never
// used (let x = log 0 in 1) still makes the program undefined. The lowering adds every port
// that no strict node consumes to its context's effects; a Sync joins them and Gates hold the
// context's outputs until they are known to be defined. The sets of nodes are static.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lang/name.hpp"
#include "lang/op.hpp"
#include "lang/source.hpp"
#include "lang/term.hpp"
#include "lang/type.hpp"
#include "semantics/undefined.hpp"

namespace adlang::graph {

enum class NodeKind {
  Const,
  BoolConst,
  Add,
  Op,
  Pred,
  Switch,
  Merge,
  InputMerge,
  Call,
  Return,
  Exit,
  Sync,
  Gate,
  Rd,
  Save,
  Load,
};
inline constexpr int kNodeKinds = 16;

const char* to_string(NodeKind k);

using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = UINT32_MAX;

// An output port of a node.
struct Port {
  NodeId node = kNoNode;
  std::uint32_t index = 0;
  bool operator==(const Port&) const = default;
};

// A consumer of a port: input `input` of node `node`.
struct Dest {
  NodeId node;
  std::uint32_t input;
};

// What an Rd node evaluates: `term` is letrec G_1 in ... letrec G_k in m.rd_l(x:T. N) with
// the letrec groups in scope at the rd, closed except for `inputs` (m, l, then the free
// variables of N other than x, in the order of the node's inputs).
struct RdProgram {
  Term term;
  std::vector<std::pair<Name, Type>> inputs;
};

// What part of reverse mode a body or node is (adlang graph draws them in different
// colours): an inlined rd's nodes (semantics/graph/inline_rd.hpp) keep theirs in the host.
enum class BodyRole { Primal, Forward, Adjoint };

struct Node {
  NodeKind kind;
  std::uint32_t body;   // the body it belongs to
  std::uint32_t local;  // its index in that body's node list
  SourceLoc loc;        // of the term it came from
  // Its place in the body's left-to-right call-by-value order (postorder of the term): the
  // first undefinedness in this order is the one the program reports (docs/graph.md).
  std::uint32_t pos = 0;
  std::vector<Port> inputs;                // static inputs (InputMerge: one per call site)
  std::vector<std::vector<Dest>> outputs;  // consumers of each output port
  // For nodes with more than one input: the first of its input slots in a frame.
  std::uint32_t slot = 0;
  // Kind-specific data.
  double value = 0;                     // Const, BoolConst
  std::optional<Undefined> error;       // Const: the literal is out of range
  std::optional<Op> op;                 // Op
  std::optional<Pred> pred;             // Pred
  std::uint32_t site = 0;               // Call, Return: the call site (global number)
  std::uint32_t index = 0;              // Call: argument (== arity for control);
                                        // Return, Exit: output; InputMerge: input;
                                        // Save, Load: the store slot
  bool control = false;                 // Call/InputMerge of the control token
  BodyRole role = BodyRole::Primal;     // an inlined rd's forward or adjoint node
  std::uint32_t inlined_rd = 0;         // that rd: 1 + its index in Graph::inlined_rd_names
  std::shared_ptr<const RdProgram> rd;  // Rd
  std::uint32_t num_inputs() const { return static_cast<std::uint32_t>(inputs.size()); }
  std::uint32_t num_outputs() const { return static_cast<std::uint32_t>(outputs.size()); }
};

// Call site i (numbered from 1 in the whole graph, as in the thesis's pictures).
struct CallSite {
  std::uint32_t number;          // i
  std::uint32_t caller, callee;  // bodies
  std::uint32_t local;           // its index among the caller body's sites (frame slots)
  std::uint32_t pos;             // its place in the caller's evaluation order
  SourceLoc loc;
  std::vector<NodeId> calls;    // Call_i per argument scalar, then the control Call
  std::vector<NodeId> returns;  // Return_i per output of the callee
  // Reverse mode (docs/graph-ad.md): a tagged site's callee frame gets a tag in the store, its
  // caller's tag extended by the site `mirror` (a global index: the forward site this one is
  // the adjoint of, or the site itself). Fuel counts function calls, as symbolic evaluation
  // counts them: an adjoint site charges none (R makes no calls), nor do the two sites an rd
  // is lowered to.
  bool tagged = false;
  std::uint32_t mirror = UINT32_MAX;
  bool charges_fuel = true;
};

// A function body (or the main term).
struct Body {
  std::string name;  // the function's name; "main" for the entry body
  SourceLoc loc;
  BodyRole role = BodyRole::Primal;
  bool uses_store = false;  // has Save or Load nodes or tagged call sites: its frames get a tag
  Type param_type, result_type;
  // The program's name of each parameter scalar, for pictures: "n", "fst p", "snd p", "v.3";
  // an adjoint body's parameter is the cotangent w of its function's result.
  std::vector<std::string> param_names;
  std::vector<NodeId> inputs;        // InputMerge per parameter scalar, then the control input
  std::vector<NodeId> exits;         // Exit per output (|U| of them, or one control "done")
  std::vector<NodeId> nodes;         // every node of the body, by local index (contiguous ids)
  NodeId first = 0;                  // id of its first node: local index = id - first
  std::vector<std::uint32_t> sites;  // its call sites (global indices), by local index
  std::uint32_t num_slots = 0;       // input slots of its multi-input nodes
  std::uint32_t num_multi = 0;       // nodes with more than one input
  std::vector<std::uint32_t> multi_index;  // per local node: its index among multi-input nodes
};

struct Graph {
  std::vector<Node> nodes;
  std::vector<Body> bodies;
  std::vector<CallSite> sites;
  std::uint32_t main = 0;                             // the entry body
  std::vector<std::pair<Name, Type>> program_inputs;  // main's parameters, in order
  Type result_type;
  std::uint32_t store_slots = 0;  // slots of Save and Load nodes (0: none)
  // The rds inlined into their hosts (semantics/graph/inline_rd.hpp), by their bodies' names
  // ("rd@LINE:COL"): Node::inlined_rd numbers them from 1.
  std::vector<std::string> inlined_rd_names;

  const Node& node(NodeId id) const { return nodes[id]; }
  std::uint32_t inlined_rds() const { return static_cast<std::uint32_t>(inlined_rd_names.size()); }
  // Number of outputs a body of result type U has: |U|, or one control token when |U| = 0.
  static std::uint32_t output_count(Type u) {
    return u.size() == 0 ? 1 : static_cast<std::uint32_t>(u.size());
  }
};

// Appends a node of `kind` with `noutputs` unconnected output ports to body `body` (the next
// local index), at place `pos` of its evaluation order; returns its id.
inline NodeId add_node(Graph& g, NodeKind kind, std::uint32_t body, SourceLoc loc,
                       std::uint32_t pos, std::uint32_t noutputs) {
  NodeId id = static_cast<NodeId>(g.nodes.size());
  Node n;
  n.kind = kind;
  n.body = body;
  n.local = static_cast<std::uint32_t>(g.bodies[body].nodes.size());
  n.loc = loc;
  n.pos = pos;
  n.outputs.resize(noutputs);
  g.nodes.push_back(std::move(n));
  g.bodies[body].nodes.push_back(id);
  return id;
}

// Adds port p as the next input of node `to` (both directions of the edge).
inline void connect(Graph& g, Port p, NodeId to) {
  Node& n = g.nodes[to];
  std::uint32_t input = n.num_inputs();
  n.inputs.push_back(p);
  g.nodes[p.node].outputs[p.index].push_back(Dest{to, input});
}

// The function a body is (or is the forward or adjoint body of: "f/fwd/adj" is f's), for
// messages: what the program calls it.
inline std::string function_name(const Body& b) {
  return b.name.substr(0, b.name.find('/'));
}

// The names of the reals a value of type t named `name` is made of, in order: `name` itself
// for a real, "fst p" and "snd p" for p : real * real, and "p.1", ..., "p.k" for any other p
// of k reals.
std::vector<std::string> component_names(const std::string& name, Type t);

// Counts of nodes by kind (adlang graph --stats).
std::vector<std::size_t> count_by_kind(const Graph& g);

// Checks the graph's structural invariants (every input wired, edges symmetric, slots
// consistent); throws InternalError naming the first violation. Run after lowering in tests.
void verify(const Graph& g);

}  // namespace adlang::graph
