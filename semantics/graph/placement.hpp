// Placement of the tagged graph's nodes on partitions (thesis Sec. 5.4; Appendix B places the
// base case and the recursive case of factorial on different tasks; docs/graph-partition.md).
//
// `--place FUNCTION=RANK` puts every node of FUNCTION's body on partition RANK;
// `--place FUNCTION:LINE=RANK` puts the nodes of FUNCTION's body made from terms that start on
// source line LINE (the program's term is the function `main`). Later options override earlier
// ones, and a line overrides its function. Nodes no option places follow an automatic default
// that balances the static cost of the bodies over the ranks. The Calls and Returns of one
// call site always share the partition of the site's control Call (a call site fires as one
// unit, semantics/graph/partitioned_executor.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "semantics/graph/graph.hpp"

namespace adlang::graph {

struct PlaceSpec {
  std::string function;
  std::optional<std::uint32_t> line;
  std::uint32_t rank = 0;
};

// Parses FUNCTION=RANK or FUNCTION:LINE=RANK; throws std::invalid_argument with a message
// that says what is wrong.
PlaceSpec parse_place(const std::string& text);

// The static cost of a node: the work it stands for (an operator's arity, a call's scalars),
// the measure the automatic placement balances.
std::uint64_t static_cost(const Node& n);

// The partition of every node of `g` (indexed by NodeId) over `ranks` partitions. Throws
// std::invalid_argument when a spec names no function of the program, a line that holds none
// of its nodes, or a rank outside [0, ranks).
std::vector<std::uint32_t> place_nodes(const Graph& g, const std::vector<PlaceSpec>& specs,
                                       std::uint32_t ranks);

// Moves the Calls and Returns of every call site to the partition of its control Call.
void unite_call_sites(const Graph& g, std::vector<std::uint32_t>& rank_of);

}  // namespace adlang::graph
