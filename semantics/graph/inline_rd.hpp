// Inlining of an rd's forward and adjoint bodies into the activation of its host
// (docs/graph-ad.md, "Inlined rds").
//
// W.rd_V(x:T. N) is lowered to two call sites of the same tag in its host body H: one into the
// forward body of N, which saves what the adjoints read, and one into its adjoint body, which
// loads it (semantics/graph/adjoint.hpp). Where N makes no calls (a straight-line or branching
// body) and no rd of the program nests in another, both bodies run exactly once per activation
// of H, so they can be H's own nodes: a Load becomes an edge from the port its Save keeps, the
// Saves, Loads, Calls, Returns, InputMerges and Exits go, and nothing is tagged or stored.
//
// What the call sites gave and the inlined nodes keep:
// - strictness: a call is strict in all its arguments, so the rd is undefined when V, W, a free
//   variable of N or the forward activation is. The Sync that let the adjoint start after the
//   forward activation (its control token) also joins V, W and the free variables, and a Gate
//   on it holds each of the rd's outputs;
// - the order of undefinedness: a bottom's key is its node's place in the body's evaluation
//   order (docs/graph.md), so the forward nodes take the places of the forward site, the
//   adjoint's those of the adjoint site, and H's later nodes move up;
// - what R does not compute (the cotangents of N's free variables): nodes of the adjoint that no
//   output reads are removed, as the adjoint's dropped outputs were never read.
// Inlined nodes keep the part of reverse mode they are (Node::role), for the pictures.
#pragma once

#include <cstdint>
#include <vector>

#include "semantics/graph/graph.hpp"

namespace adlang::graph {

// An rd lowered to reverse mode: the sites of its host into the forward and the adjoint body.
struct RdSites {
  std::uint32_t forward_site, adjoint_site;
};

// Whether the rd's bodies make no calls (the condition above, with no rd nesting in another,
// which the caller knows).
bool inlinable(const Graph& g, const RdSites& rd);

// Inlines every rd of `rds` into its host (all inlinable), then removes the bodies and sites
// that were theirs. For a graph whose cross-body edges are not wired yet (lowering, before
// renumbering): nodes removed stay in g.nodes but in no body's list.
void inline_rds(Graph& g, const std::vector<RdSites>& rds);

}  // namespace adlang::graph
