#include "viz/trace_graph_dot.hpp"

#include <sstream>

namespace adlang {

namespace {

// Text inside a record label: the record syntax's special characters escaped.
std::string record_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '{' || c == '}' || c == '|' || c == '<' || c == '>' || c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string trace_graph_dot(const TraceGraph& g) {
  std::ostringstream out;
  out << "digraph trace {\n"
      << "  rankdir=LR;\n"
      << "  node [fontname=\"Helvetica\", fontsize=11];\n"
      << "  edge [arrowsize=0.7];\n";
  if (!g.wrt.empty()) {
    out << "  label="
        << quoted("values and adjoints: cotangent " + g.cotangent + ", input " + g.wrt)
        << ";\n  labelloc=t;\n";
  }
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const TraceGraphNode& n = g.nodes[i];
    std::string id = "n" + std::to_string(i);
    std::string fill = n.kind == TraceGraphNode::Kind::Input      ? "#cfe2ff"
                       : i == g.output                            ? "#fff3bf"
                       : n.kind == TraceGraphNode::Kind::Constant ? "#eeeeee"
                                                                  : "white";
    std::string label;
    if (n.kind == TraceGraphNode::Kind::Constant && n.name.empty()) {
      label = record_text(n.label);
    } else {
      label = "{ " + record_text(n.name) + " | value " + record_text(n.value);
      if (n.adjoint) label += " | adjoint " + record_text(*n.adjoint);
      label += " }";
    }
    out << "  " << id << " [shape=record, style=filled, fillcolor=" << quoted(fill)
        << (i == g.output ? ", penwidth=2" : "") << ", label=" << quoted(label) << "];\n";
    if (n.kind == TraceGraphNode::Kind::Operation) {
      out << "  " << id << "_op [shape=circle, margin=0.02, width=0.3, label=" << quoted(n.label)
          << "];\n";
      for (std::size_t k : n.operands)
        out << "  n" << k << " -> " << id << "_op;\n";
      out << "  " << id << "_op -> " << id << ";\n";
    }
  }
  out << "}\n";
  return out.str();
}

}  // namespace adlang
