#include "semantics/graph/dot.hpp"

#include <sstream>

#include "semantics/scalar.hpp"

namespace adlang::graph {

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// The tag element of an adjoint call site: the number of the forward site it mirrors.
std::string tag_element(const Graph& g, const CallSite& s) {
  if (s.mirror == UINT32_MAX || g.sites[s.mirror].number == s.number) return "";
  return " [tag " + std::to_string(g.sites[s.mirror].number) + "]";
}

std::string dot_label(const Graph& g, const Node& n) {
  switch (n.kind) {
    case NodeKind::Const:
      return n.error ? "const (out of range)" : ScalarTraits<double>::to_text(n.value);
    case NodeKind::BoolConst:
      return n.value != 0 ? "true" : "false";
    case NodeKind::Add:
      return "+";
    case NodeKind::Op:
      return n.op->name();
    case NodeKind::Pred:
      return n.pred->symbol();
    case NodeKind::Switch:
      return "Switch";
    case NodeKind::Merge:
      return "Merge";
    case NodeKind::InputMerge:
      return n.control ? "Merge (ctl)" : "Merge (x" + std::to_string(n.index) + ")";
    case NodeKind::Call: {
      const CallSite& s = g.sites[n.site];
      return "Call_" + std::to_string(s.number) + tag_element(g, s) +
             (n.control ? " (ctl)" : " (x" + std::to_string(n.index) + ")");
    }
    case NodeKind::Return: {
      const CallSite& s = g.sites[n.site];
      return "Return_" + std::to_string(s.number) + tag_element(g, s) +
             (s.returns.size() > 1 ? " (" + std::to_string(n.index) + ")" : "");
    }
    case NodeKind::Save:
      return (n.control ? "Save pred s" : "Save s") + std::to_string(n.index);
    case NodeKind::Load:
      return (n.control ? "Load pred s" : "Load s") + std::to_string(n.index);
    case NodeKind::Exit:
      return "out " + std::to_string(n.index);
    case NodeKind::Sync:
      return "Sync";
    case NodeKind::Gate:
      return "Gate";
    case NodeKind::Rd:
      return "rd (host)";
  }
  return "?";
}

const char* dot_shape(NodeKind k) {
  switch (k) {
    case NodeKind::Switch:
    case NodeKind::Merge:
    case NodeKind::InputMerge:
      return "diamond";
    case NodeKind::Call:
    case NodeKind::Return:
      return "box";
    case NodeKind::Const:
    case NodeKind::BoolConst:
      return "plaintext";
    case NodeKind::Exit:
      return "invhouse";
    case NodeKind::Add:
    case NodeKind::Op:
    case NodeKind::Pred:
    case NodeKind::Sync:
    case NodeKind::Gate:
    case NodeKind::Rd:
      return "ellipse";
    case NodeKind::Save:
    case NodeKind::Load:
      return "cylinder";
  }
  return "ellipse";
}

std::string to_dot(const Graph& g) {
  std::ostringstream o;
  o << "digraph adlang {\n  compound=true;\n  node [fontname=\"Helvetica\", fontsize=10];\n"
    << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (std::uint32_t b = 0; b < g.bodies.size(); ++b) {
    const Body& body = g.bodies[b];
    // Reverse mode (docs/graph-ad.md): forward bodies in blue, adjoint bodies in red.
    o << "  subgraph cluster_" << b << " {\n    label=\"" << dot_escape(body.name);
    if (body.role == BodyRole::Forward)
      o << " (forward)\";\n    color=\"#1f5fbf\";\n    fontcolor=\"#1f5fbf\"";
    if (body.role == BodyRole::Adjoint)
      o << " (adjoint)\";\n    color=\"#c0392b\";\n    fontcolor=\"#c0392b\"";
    if (body.role == BodyRole::Primal) o << "\"";
    o << ";\n";
    auto node = [&](NodeId id, const char* indent) {
      const Node& n = g.nodes[id];
      o << indent << "n" << id << " [label=\"" << dot_escape(dot_label(g, n))
        << "\", shape=" << dot_shape(n.kind);
      if (n.kind == NodeKind::Call || n.kind == NodeKind::Return)
        o << ", style=filled, fillcolor=\"#e8f0ff\"";
      if (n.kind == NodeKind::Switch || n.kind == NodeKind::Merge)
        o << ", style=filled, fillcolor=\"#fff3d6\"";
      if (n.kind == NodeKind::Save || n.kind == NodeKind::Load)
        o << ", style=filled, fillcolor=\"#e6f4e6\"";
      const BodyRole role = body.role == BodyRole::Primal ? n.role : body.role;
      if (role == BodyRole::Adjoint) o << ", color=\"#c0392b\"";
      if (role == BodyRole::Forward) o << ", color=\"#1f5fbf\"";
      o << "];\n";
    };
    // An inlined rd's nodes (semantics/graph/inline_rd.hpp): a cluster for its forward part
    // (group 2k - 2) and one for its adjoint part (2k - 1) inside the host's, outlined as the
    // bodies were.
    std::vector<std::vector<NodeId>> groups(2 * g.inlined_rds());
    for (NodeId id : body.nodes) {
      const Node& n = g.nodes[id];
      if (n.inlined_rd == 0) {
        node(id, "    ");
      } else {
        groups[2 * (n.inlined_rd - 1) + (n.role == BodyRole::Adjoint)].push_back(id);
      }
    }
    for (std::size_t x = 0; x < groups.size(); ++x) {
      if (groups[x].empty()) continue;
      const bool fwd = x % 2 == 0;
      const char* colour = fwd ? "#1f5fbf" : "#c0392b";
      o << "    subgraph cluster_" << b << "_" << x / 2 + 1 << (fwd ? "_f" : "_a")
        << " {\n      label=\"" << dot_escape(g.inlined_rd_names[x / 2])
        << (fwd ? " (forward, inlined)" : " (adjoint, inlined)") << "\";\n      color=\"" << colour
        << "\";\n      fontcolor=\"" << colour << "\";\n      style=dashed;\n";
      for (NodeId id : groups[x])
        node(id, "      ");
      o << "    }\n";
    }
    o << "  }\n";
  }
  for (NodeId id = 0; id < g.nodes.size(); ++id) {
    const Node& n = g.nodes[id];
    for (std::uint32_t p = 0; p < n.outputs.size(); ++p) {
      for (const Dest& d : n.outputs[p]) {
        o << "  n" << id << " -> n" << d.node;
        if (n.kind == NodeKind::Switch) o << " [label=\"" << (p == 0 ? "T" : "F") << "\"]";
        o << ";\n";
      }
    }
  }
  // The control edges Call_i -> Return_i that carry deadness through recursion (Sec. 5.4.6).
  for (const CallSite& s : g.sites)
    for (NodeId r : s.returns)
      o << "  n" << s.calls.back() << " -> n" << r << " [style=dashed];\n";
  o << "}\n";
  return o.str();
}

}  // namespace adlang::graph
