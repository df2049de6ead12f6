#include "semantics/graph/graph.hpp"

#include "lang/diagnostics.hpp"

namespace adlang::graph {

const char* to_string(NodeKind k) {
  switch (k) {
    case NodeKind::Const:
      return "Const";
    case NodeKind::BoolConst:
      return "BoolConst";
    case NodeKind::Add:
      return "Add";
    case NodeKind::Op:
      return "Op";
    case NodeKind::Pred:
      return "Pred";
    case NodeKind::Switch:
      return "Switch";
    case NodeKind::Merge:
      return "Merge";
    case NodeKind::InputMerge:
      return "InputMerge";
    case NodeKind::Call:
      return "Call";
    case NodeKind::Return:
      return "Return";
    case NodeKind::Exit:
      return "Exit";
    case NodeKind::Sync:
      return "Sync";
    case NodeKind::Gate:
      return "Gate";
    case NodeKind::Rd:
      return "Rd";
    case NodeKind::Save:
      return "Save";
    case NodeKind::Load:
      return "Load";
  }
  return "?";
}

std::vector<std::string> component_names(const std::string& name, Type t) {
  if (t.is_real()) return {name};
  if (t.is_pair() && t.first().is_real() && t.second().is_real())
    return {"fst " + name, "snd " + name};
  // Deeper or wider values (a real^n of 10^5 components) by position, in time linear in |T|.
  std::vector<std::string> out;
  out.reserve(t.size());
  for (std::size_t i = 1; i <= t.size(); ++i)
    out.push_back(name + "." + std::to_string(i));
  return out;
}

std::vector<std::size_t> count_by_kind(const Graph& g) {
  std::vector<std::size_t> n(kNodeKinds, 0);
  for (const Node& x : g.nodes)
    ++n[static_cast<int>(x.kind)];
  return n;
}

void verify(const Graph& g) {
  auto fail = [](const std::string& what) { throw InternalError("graph verifier: " + what); };
  // Edges are symmetric: every consumer a port lists reads that port by the input it names,
  // once, and every input is listed by its port. Counted per input (an input's first edge),
  // not by searching the port's consumers, which a constant or a control token read by 10^5
  // nodes would make quadratic.
  std::vector<std::size_t> first_input(g.nodes.size() + 1, 0);
  for (NodeId id = 0; id < g.nodes.size(); ++id)
    first_input[id + 1] = first_input[id] + g.nodes[id].inputs.size();
  std::vector<bool> listed(first_input.back(), false);
  for (NodeId id = 0; id < g.nodes.size(); ++id) {
    const Node& n = g.nodes[id];
    for (std::uint32_t k = 0; k < n.outputs.size(); ++k) {
      // (Messages are made only on failure: the verifier runs on graphs of 10^6 nodes.)
      auto edge = [&] {
        return std::string(to_string(n.kind)) + " #" + std::to_string(id) + " output " +
               std::to_string(k);
      };
      for (const Dest& d : n.outputs[k]) {
        if (d.node >= g.nodes.size() || d.input >= g.nodes[d.node].inputs.size() ||
            !(g.nodes[d.node].inputs[d.input] == Port{id, k}))
          fail(edge() + " lists a consumer that does not read it");
        if (listed[first_input[d.node] + d.input]) fail(edge() + " lists a consumer twice");
        listed[first_input[d.node] + d.input] = true;
      }
    }
  }
  for (NodeId id = 0; id < g.nodes.size(); ++id) {
    const Node& n = g.nodes[id];
    auto me = [&] { return std::string(to_string(n.kind)) + " #" + std::to_string(id); };
    if (n.body >= g.bodies.size()) fail(me() + " has no body");
    const Body& b = g.bodies[n.body];
    if (n.local >= b.nodes.size() || b.nodes[n.local] != id) fail(me() + " is not in its body");
    for (std::uint32_t i = 0; i < n.inputs.size(); ++i) {
      Port p = n.inputs[i];
      if (p.node >= g.nodes.size()) fail(me() + " input " + std::to_string(i) + " is not wired");
      const Node& src = g.nodes[p.node];
      if (p.index >= src.outputs.size()) fail(me() + " reads a missing port");
      if (!listed[first_input[id] + i])
        fail(me() + " input " + std::to_string(i) + " has no matching edge");
      bool cross = n.kind == NodeKind::InputMerge || n.kind == NodeKind::Return;
      if (!cross && src.body != n.body) fail(me() + " reads a node of another body");
    }
    bool multi =
        n.inputs.size() > 1 && n.kind != NodeKind::InputMerge && n.kind != NodeKind::Return;
    if (multi && n.slot + n.inputs.size() > b.num_slots) fail(me() + " has slots out of range");
  }
  for (const Node& n : g.nodes) {
    if ((n.kind == NodeKind::Save || n.kind == NodeKind::Load) &&
        (n.index >= g.store_slots || n.inputs.size() != 1 || !g.bodies[n.body].uses_store))
      fail(std::string(to_string(n.kind)) + " of slot " + std::to_string(n.index) +
           " is malformed");
  }
  for (const CallSite& s : g.sites) {
    if (s.tagged && (s.mirror >= g.sites.size() || !g.bodies[s.caller].uses_store))
      fail("tagged call site " + std::to_string(s.number) + " without a tag element");
    const Body& callee = g.bodies[s.callee];
    if (s.calls.size() != callee.inputs.size()) fail("call site arity differs from its callee");
    if (s.returns.size() != callee.exits.size()) fail("call site outputs differ from its callee");
  }
}

}  // namespace adlang::graph
