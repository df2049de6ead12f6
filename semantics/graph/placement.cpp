#include "semantics/graph/placement.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace adlang::graph {
namespace {

std::optional<std::uint32_t> parse_number(const std::string& s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  std::uint32_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::uint32_t>(c - '0');
  }
  return v;
}

}  // namespace

PlaceSpec parse_place(const std::string& text) {
  const std::string usage = "expected FUNCTION=RANK or FUNCTION:LINE=RANK, got '" + text + "'";
  std::size_t eq = text.rfind('=');
  if (eq == std::string::npos) throw std::invalid_argument(usage);
  PlaceSpec p;
  std::optional<std::uint32_t> rank = parse_number(text.substr(eq + 1));
  if (!rank) throw std::invalid_argument(usage + " (RANK is a number from 0)");
  p.rank = *rank;
  std::string lhs = text.substr(0, eq);
  std::size_t colon = lhs.find(':');
  if (colon != std::string::npos) {
    std::optional<std::uint32_t> line = parse_number(lhs.substr(colon + 1));
    if (!line || *line == 0) throw std::invalid_argument(usage + " (LINE is a line number)");
    p.line = *line;
    lhs = lhs.substr(0, colon);
  }
  if (lhs.empty()) throw std::invalid_argument(usage);
  p.function = lhs;
  return p;
}

std::uint64_t static_cost(const Node& n) {
  switch (n.kind) {
    case NodeKind::Op:
      return 1 + n.num_inputs();
    case NodeKind::Rd:
      return 16;
    default:
      return 1;
  }
}

std::vector<std::uint32_t> place_nodes(const Graph& g, const std::vector<PlaceSpec>& specs,
                                       std::uint32_t ranks) {
  if (ranks == 0) throw std::invalid_argument("the number of partitions must be at least 1");
  constexpr std::uint32_t kUnplaced = UINT32_MAX;
  std::vector<std::uint32_t> rank(g.nodes.size(), kUnplaced);
  // Whole functions first, then lines, each in the order given (a later one overrides).
  for (int pass = 0; pass < 2; ++pass) {
    for (const PlaceSpec& s : specs) {
      if (s.line.has_value() != (pass == 1)) continue;
      if (s.rank >= ranks)
        throw std::invalid_argument("--place " + s.function + ": rank " + std::to_string(s.rank) +
                                    " is not below the number of partitions (" +
                                    std::to_string(ranks) + ")");
      bool function_found = false, line_found = false;
      for (const Body& b : g.bodies) {
        if (b.name != s.function) continue;
        function_found = true;
        for (NodeId id : b.nodes) {
          if (s.line && g.nodes[id].loc.line != *s.line) continue;
          line_found = true;
          rank[id] = s.rank;
        }
      }
      if (!function_found) {
        std::string names;
        for (const Body& b : g.bodies)
          names += (names.empty() ? "" : ", ") + b.name;
        throw std::invalid_argument("--place: the program has no function '" + s.function +
                                    "' (its functions: " + names + ")");
      }
      if (s.line && !line_found)
        throw std::invalid_argument("--place " + s.function + ":" + std::to_string(*s.line) +
                                    ": no term of '" + s.function + "' starts on line " +
                                    std::to_string(*s.line));
    }
  }
  // The automatic default: bodies by decreasing static cost, each to the least loaded
  // partition (longest processing time first); nodes already placed count where they are.
  std::vector<std::uint64_t> load(ranks, 0);
  for (NodeId id = 0; id < g.nodes.size(); ++id)
    if (rank[id] != kUnplaced) load[rank[id]] += static_cost(g.nodes[id]);
  std::vector<std::uint64_t> cost(g.bodies.size(), 0);
  for (NodeId id = 0; id < g.nodes.size(); ++id)
    if (rank[id] == kUnplaced) cost[g.nodes[id].body] += static_cost(g.nodes[id]);
  std::vector<std::uint32_t> order(g.bodies.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return cost[a] > cost[b]; });
  for (std::uint32_t b : order) {
    if (cost[b] == 0) continue;
    std::uint32_t best =
        static_cast<std::uint32_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[best] += cost[b];
    for (NodeId id : g.bodies[b].nodes)
      if (rank[id] == kUnplaced) rank[id] = best;
  }
  unite_call_sites(g, rank);
  return rank;
}

void unite_call_sites(const Graph& g, std::vector<std::uint32_t>& rank_of) {
  for (const CallSite& s : g.sites) {
    std::uint32_t r = rank_of[s.calls.back()];
    for (NodeId c : s.calls)
      rank_of[c] = r;
    for (NodeId ret : s.returns)
      rank_of[ret] = r;
  }
}

}  // namespace adlang::graph
