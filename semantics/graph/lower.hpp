// Lowering of the typed core IR to the tagged static dataflow graph (thesis Secs. 4.2-5.2;
// docs/graph.md). Every function body is lowered once, local letrecs included (their bodies
// have no free ordinary variables, Fig. 1, so they lift); the main term is the entry body
// whose parameters are the program's inputs.
//
// W.rd_V(x:T. N) is lowered, by default, to reverse mode inside the graph (docs/graph-ad.md):
// N becomes a body of its own, differentiated into a forward and an adjoint body
// (semantics/graph/adjoint.hpp), and the rd to two call sites of the same tag, one into each.
// Where N makes no calls and no rd nests in another, both bodies are inlined into the rd's
// host (semantics/graph/inline_rd.hpp); RdLowering::Calls keeps the two call sites everywhere.
// RdLowering::Host keeps the earlier lowering, one Rd node evaluated on the host by symbolic
// evaluation and the linear R (for comparison, and for partitioned runs).
#pragma once

#include <utility>
#include <vector>

#include "lang/term.hpp"
#include "semantics/graph/graph.hpp"

namespace adlang::graph {

// The graph of a type-checked program whose free variables are `inputs`. Literals are read
// as doubles (the graph runs in double precision).
enum class RdLowering { Adjoint, Calls, Host };

Graph lower_to_graph(const Term& program, const std::vector<std::pair<Name, Type>>& inputs,
                     RdLowering rd = RdLowering::Adjoint);

}  // namespace adlang::graph
