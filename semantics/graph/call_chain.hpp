// The call/return chain of the tagged graph (thesis Sec. 5.2.1, the tags of Call_i and Return_i;
// docs/graph.md, "The executor"): a tag t/i is an activation whose parent is t and whose call
// site is i, and the thesis's list tag is the chain of parents. Every executor keeps its
// activations' records its own way (the threaded executor's frames are addresses in its chunks,
// frame.hpp; the reference executor's and a partition's are indices into a table), and each
// record holds this link; what a walk up the chain computes is written once, here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "semantics/graph/graph.hpp"

namespace adlang::graph {

// An activation's place in the chain: its parent t (Ref: a frame's address or its index; the
// main frame's is `none`), its call site i (global: Graph::sites; the main frame's is
// UINT32_MAX) and the body it runs. Each executor's record begins with it.
template <class Ref>
struct CallLink {
  Ref parent;
  std::uint32_t body;
  std::uint32_t site;
};

// The key of an undefinedness at node position `pos` of activation f (token.hpp's Bottom): the
// positions of the call sites from the main frame down to f, then `pos`. `at(x)` is x's
// CallLink, `none` the main frame's parent. An activation that has sent all its outputs
// (`returned(x)`, or none in an executor that does not track it) reaches no result, nor does an
// undefinedness below it: it gets the last key. Each frame the walk reaches must be alive, which
// is the caller's to ensure (frame.hpp, FrameCounts::key_at).
template <class Ref, class At, class Returned>
std::vector<std::uint32_t> call_chain_key(const Graph& g, Ref f, std::uint32_t pos, Ref none, At at,
                                          Returned returned) {
  std::vector<std::uint32_t> key;
  for (Ref x = f; at(x).parent != none; x = at(x).parent) {
    if (returned(x)) return {UINT32_MAX};
    key.push_back(g.sites[at(x).site].pos);
  }
  std::reverse(key.begin(), key.end());
  key.push_back(pos);
  return key;
}

// The key under which a partition's table of child activations finds t/site
// (partitioned_executor.cpp; TensorFlow's FindOrCreateChildFrame looks a child frame up by its
// parent and name the same way).
inline std::uint64_t child_key(std::uint32_t parent, std::uint32_t site) {
  return (static_cast<std::uint64_t>(parent) << 32) | site;
}

}  // namespace adlang::graph
