#include "semantics/graph/dot.hpp"

#include <sstream>
#include <vector>

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

// The name of parameter scalar i of body b: the program's ("n", "fst p"), or xi.
std::string param_name(const Graph& g, std::uint32_t b, std::uint32_t i) {
  const std::vector<std::string>& names = g.bodies[b].param_names;
  return i < names.size() ? names[i] : "x" + std::to_string(i);
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
      return n.control ? "Merge (ctl)" : "Merge (" + param_name(g, n.body, n.index) + ")";
    case NodeKind::Call: {
      const CallSite& s = g.sites[n.site];
      return "Call_" + std::to_string(s.number) + tag_element(g, s) +
             (n.control ? " (ctl)" : " (" + param_name(g, s.callee, n.index) + ")");
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

std::string dot_legend(const Graph& g) {
  std::vector<std::size_t> kinds = count_by_kind(g);
  auto has = [&](NodeKind k) { return kinds[static_cast<int>(k)] > 0; };
  struct Entry {
    std::string sample, shape, fill, text;
  };
  std::vector<Entry> entries;
  // Short lines (\l ends a left-justified line), so that the legend stays narrow.
  if (has(NodeKind::Switch))
    entries.push_back({"Switch", "diamond", "#fff3d6",
                       "sends its value out of T or F,\\las the predicate decides"});
  if (has(NodeKind::Merge) || has(NodeKind::InputMerge))
    entries.push_back({"Merge", "diamond", has(NodeKind::Merge) ? "#fff3d6" : "",
                       "passes on the value that arrives:\\lthe branch taken's, or (Merge (n))\\l"
                       "the parameter n of a new frame"});
  if (has(NodeKind::Call))
    entries.push_back({"Call_i", "box", "#e8f0ff",
                       "passes an argument (ctl: the control\\ltoken) into a new frame of the\\l"
                       "callee; i numbers the call site"});
  if (has(NodeKind::Return))
    entries.push_back(
        {"Return_i", "box", "#e8f0ff", "the callee's result, back in\\lthe frame of call site i"});
  if (has(NodeKind::Save) || has(NodeKind::Load))
    entries.push_back({"Save / Load", "cylinder", "#e6f4e6",
                       "a value the forward body keeps\\lfor the adjoint body, by frame tag"});
  if (has(NodeKind::Exit)) entries.push_back({"out k", "invhouse", "", "the body's k-th result"});
  if (entries.empty() && g.sites.empty()) return "";
  std::ostringstream o;
  o << "  subgraph cluster_legend {\n    label=\"legend\";\n    color=\"#999999\";\n"
    << "    fontcolor=\"#555555\";\n";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    o << "    legend" << i << " [label=\"" << dot_escape(e.sample) << "\", shape=" << e.shape;
    if (!e.fill.empty()) o << ", style=filled, fillcolor=\"" << e.fill << "\"";
    o << "];\n    legend" << i << "_text [shape=plaintext, label=\"" << e.text << "\\l\"];\n"
      << "    { rank=same; legend" << i << "; legend" << i << "_text; }\n"
      << "    legend" << i << " -> legend" << i << "_text [style=invis];\n";
    if (i > 0) o << "    legend" << i - 1 << " -> legend" << i << " [style=invis];\n";
  }
  if (!g.sites.empty()) {
    // The dashed control edge, drawn between two points.
    const std::size_t i = entries.size();
    o << "    legend" << i << " [shape=point, width=0.05];\n    legend" << i
      << "_to [shape=point, width=0.05];\n    legend" << i << "_text [shape=plaintext, label=\""
      << "Call_i to Return_i: control; a Call\\lon an untaken branch (a dead token)\\l"
      << "makes its Return dead too\\l\"];\n"
      << "    { rank=same; legend" << i << "; legend" << i << "_to; legend" << i << "_text; }\n"
      << "    legend" << i << " -> legend" << i << "_to [style=dashed];\n    legend" << i
      << "_to -> legend" << i << "_text [style=invis];\n";
    if (i > 0) o << "    legend" << i - 1 << " -> legend" << i << " [style=invis];\n";
  }
  o << "  }\n";
  return o.str();
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
  o << dot_legend(g) << "}\n";
  return o.str();
}

}  // namespace adlang::graph
