#include "viz/trace_graph_dot.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "viz/significant_digits.hpp"

namespace adlang {

namespace {

// Values are shown to this many significant digits, as micrograd shows them; the tooltip has
// them in full.
constexpr int kShownDigits = 4;

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

// A DOT string; a line break is written \n (a label's centred line, a tooltip's line).
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i ? ", " : "") + names[i];
  return out;
}

// The tooltip of a value's node: its names and its value and adjoint in full, one per line.
std::string tooltip(const TraceGraphNode& n) {
  std::string t = n.names.empty() ? "" : joined(n.names) + "\n";
  t += "value " + n.value;
  if (n.adjoint) t += "\nadjoint " + *n.adjoint;
  return t;
}

}  // namespace

namespace {

constexpr std::size_t kNoPage = static_cast<std::size_t>(-1);

// The page of each node: operations (and named constants) in evaluation order,
// kTracePageOperations to a page; a constant on its consumer's page; inputs on none (they are
// drawn on every page that uses them).
std::vector<std::size_t> pages_of(const TraceGraph& g) {
  std::vector<std::size_t> page(g.nodes.size(), kNoPage);
  std::size_t operations = 0;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const TraceGraphNode& n = g.nodes[i];
    if (n.kind == TraceGraphNode::Kind::Operation ||
        (n.kind == TraceGraphNode::Kind::Constant && !n.names.empty())) {
      page[i] = operations++ / kTracePageOperations;
    }
  }
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    for (std::size_t k : g.nodes[i].operands) {
      if (g.nodes[k].kind == TraceGraphNode::Kind::Constant && g.nodes[k].names.empty())
        page[k] = page[i];
    }
  }
  if (page[g.output] == kNoPage && g.nodes[g.output].kind != TraceGraphNode::Kind::Input)
    page[g.output] = 0;  // a constant result
  return page;
}

}  // namespace

std::size_t trace_graph_pages(const TraceGraph& g) {
  std::size_t pages = 1;
  for (std::size_t p : pages_of(g))
    if (p != kNoPage) pages = std::max(pages, p + 1);
  return pages;
}

std::string trace_graph_dot(const TraceGraph& g, std::size_t page) {
  const std::vector<std::size_t> page_of = pages_of(g);
  const std::size_t pages = trace_graph_pages(g);
  // What page `page` draws: its own nodes, the inputs they use, and the values they use from
  // earlier pages (drawn dashed, with the page they come from).
  std::vector<bool> own(g.nodes.size(), false), used(g.nodes.size(), false);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    own[i] = page_of[i] == page;
    if (!own[i]) continue;
    for (std::size_t k : g.nodes[i].operands)
      used[k] = true;
  }
  if (page == 0 && page_of[g.output] == kNoPage) used[g.output] = true;  // an input's value

  std::ostringstream out;
  // Top to bottom, the way the program reads; compact spacing so that a small program's
  // trace fits a notebook cell (about 800 pixels) at the font's own size.
  out << "digraph trace {\n"
      << "  graph [fontname=\"Helvetica\", fontsize=11, nodesep=0.2, ranksep=0.25];\n"
      << "  node [fontname=\"Helvetica\", fontsize=11, height=0.3];\n"
      << "  edge [arrowsize=0.6, fontname=\"Helvetica\", fontsize=10, fontcolor=\"#444444\"];\n";
  // The title on short lines: a wide one would widen the whole picture.
  std::string title = g.wrt.empty() ? "values"
                                    : "values and adjoints for input " + g.wrt + ", cotangent " +
                                          with_significant_digits(g.cotangent, kShownDigits);
  if (pages > 1) {
    title = "page " + std::to_string(page + 1) + " of " + std::to_string(pages) + ": " + title +
            "\nnext to a dashed value: the page that computes it";
  }
  out << "  label="
      << quoted(title + "\n(" + std::to_string(kShownDigits) +
                " significant digits; the tooltips have all)")
      << ";\n  labelloc=t;\n";
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (!own[i] && !used[i]) continue;
    const TraceGraphNode& n = g.nodes[i];
    const bool elsewhere = !own[i] && page_of[i] != kNoPage;  // computed on an earlier page
    std::string id = "n" + std::to_string(i);
    std::string fill = n.kind == TraceGraphNode::Kind::Input      ? "#cfe2ff"
                       : elsewhere                                ? "white"
                       : i == g.output                            ? "#fff3bf"
                       : n.kind == TraceGraphNode::Kind::Constant ? "#eeeeee"
                                                                  : "white";
    if (n.kind == TraceGraphNode::Kind::Constant && n.names.empty() && i != g.output) {
      out << "  " << id << " [shape=box, style=\"rounded,filled\", fillcolor=" << quoted(fill)
          << ", label=" << quoted(with_significant_digits(n.label, kShownDigits))
          << ", tooltip=" << quoted("constant " + n.value) << "];\n";
      continue;
    }
    std::string label = "{ ";
    if (!n.names.empty()) label += record_text(joined(n.names)) + " | ";
    label += "value " + record_text(with_significant_digits(n.value, kShownDigits));
    if (n.adjoint)
      label += " | adjoint " + record_text(with_significant_digits(*n.adjoint, kShownDigits));
    if (elsewhere) label += " | from page " + std::to_string(page_of[i] + 1);
    label += " }";
    out << "  " << id << " [shape=record, style=" << (elsewhere ? "\"filled,dashed\"" : "filled")
        << ", fillcolor=" << quoted(fill) << (i == g.output && !elsewhere ? ", penwidth=2" : "")
        << ", label=" << quoted(label) << ", tooltip=" << quoted(tooltip(n)) << "];\n";
    if (n.kind == TraceGraphNode::Kind::Operation && own[i]) {
      out << "  " << id << "_op [shape=" << (n.label.size() > 3 ? "ellipse" : "circle")
          << ", margin=0.02, width=0.3, label=" << quoted(n.label) << "];\n";
      for (std::size_t k = 0; k < n.operands.size(); ++k) {
        out << "  n" << n.operands[k] << " -> " << id << "_op";
        if (k < n.operand_labels.size()) out << " [label=" << quoted(n.operand_labels[k]) << "]";
        out << ";\n";
      }
      out << "  " << id << "_op -> " << id << ";\n";
    }
  }
  out << "}\n";
  return out.str();
}

}  // namespace adlang
