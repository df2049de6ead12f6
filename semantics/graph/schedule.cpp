#include "semantics/graph/schedule.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <unordered_map>

#include "lang/diagnostics.hpp"

namespace adlang::graph {
namespace {

using EventSet = std::vector<std::uint32_t>;  // sorted event ids

// Nodes whose inputs come from another body (or from the caller): the sources of a body.
bool is_source(const Node& n) {
  return n.kind == NodeKind::InputMerge || n.kind == NodeKind::Return;
}

// A topological order of the body's nodes along its own edges (Kahn; ties by local index).
std::vector<std::uint32_t> topological_order(const Graph& g, const Body& b) {
  std::size_t n = b.nodes.size();
  std::vector<std::uint32_t> missing(n, 0);
  // The consumers of each node, in one array: node l's are consumers[first[l] .. first[l+1])
  // (a vector per node cost an allocation per node, for every run of the graph).
  std::vector<std::uint32_t> first(n + 1, 0);
  for (std::uint32_t l = 0; l < n; ++l) {
    const Node& node = g.nodes[b.nodes[l]];
    if (is_source(node)) continue;
    for (const Port& p : node.inputs) {
      ++missing[l];
      ++first[p.node - b.first + 1];
    }
  }
  for (std::size_t l = 0; l < n; ++l)
    first[l + 1] += first[l];
  std::vector<std::uint32_t> consumers(first[n]);
  std::vector<std::uint32_t> at(first.begin(), first.end() - 1);
  for (std::uint32_t l = 0; l < n; ++l) {
    const Node& node = g.nodes[b.nodes[l]];
    if (is_source(node)) continue;
    for (const Port& p : node.inputs)
      consumers[at[p.node - b.first]++] = l;
  }
  std::vector<std::uint32_t> order, ready;
  order.reserve(n);
  for (std::uint32_t l = static_cast<std::uint32_t>(n); l-- > 0;)
    if (missing[l] == 0) ready.push_back(l);
  while (!ready.empty()) {
    std::uint32_t l = ready.back();
    ready.pop_back();
    order.push_back(l);
    for (std::uint32_t k = first[l]; k < first[l + 1]; ++k)
      if (--missing[consumers[k]] == 0) ready.push_back(consumers[k]);
  }
  internal_check(order.size() == n, "a graph body has a cycle");
  return order;
}

}  // namespace

Schedule make_schedule(const Graph& g, const Body& b) {
  const std::uint32_t n = static_cast<std::uint32_t>(b.nodes.size());
  const std::uint32_t nsites = static_cast<std::uint32_t>(b.sites.size());
  std::vector<std::uint32_t> order = topological_order(g, b);
  auto local = [&](NodeId id) { return id - b.first; };

  // Events: 0 the entry, 1 + k the return of local site k, then one per Merge heading a block.
  // A node's events are a set, interned (equal sets have one id), and nodes with the same set
  // form a block; blocks are numbered in the order their sets are first given to a node. The
  // union of two sets is computed once per pair of ids: most nodes of a body read nodes of
  // their own block, so a node costs a hash lookup per input, not a set union.
  std::map<EventSet, std::uint32_t> set_ids;
  std::vector<EventSet> sets;
  std::vector<std::uint32_t> block_of_set;  // per set: its block, or UINT32_MAX
  auto intern = [&](EventSet s) {
    auto [it, fresh] = set_ids.emplace(s, static_cast<std::uint32_t>(sets.size()));
    if (fresh) {
      sets.push_back(std::move(s));
      block_of_set.push_back(UINT32_MAX);
    }
    return it->second;
  };
  std::uint32_t nblocks = 0;
  auto block_for = [&](std::uint32_t set) {
    if (block_of_set[set] == UINT32_MAX) block_of_set[set] = nblocks++;
    return block_of_set[set];
  };
  std::unordered_map<std::uint64_t, std::uint32_t> unions;
  auto join = [&](std::uint32_t a, std::uint32_t b) {
    if (a == b) return a;
    if (a > b) std::swap(a, b);
    std::uint64_t key = (static_cast<std::uint64_t>(a) << 32) | b;
    auto it = unions.find(key);
    if (it != unions.end()) return it->second;
    EventSet u;
    std::set_union(sets[a].begin(), sets[a].end(), sets[b].begin(), sets[b].end(),
                   std::back_inserter(u));
    std::uint32_t id = intern(std::move(u));
    unions.emplace(key, id);
    return id;
  };
  constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<std::uint32_t> set_of(n, kNone);
  std::vector<std::uint32_t> block_of(n, UINT32_MAX);
  Schedule sc;
  const std::uint32_t entry_set = intern({0});
  sc.entry = block_for(entry_set);
  sc.return_block.resize(nsites);
  std::vector<std::uint32_t> return_set(nsites);  // per local site: the set {its return}
  for (std::uint32_t k = 0; k < nsites; ++k) {
    return_set[k] = intern({1 + k});
    sc.return_block[k] = block_for(return_set[k]);
  }
  std::uint32_t merges = 0;
  std::vector<bool> heads(n, false);
  for (std::uint32_t l : order) {
    const Node& node = g.nodes[b.nodes[l]];
    std::uint32_t s = kNone;
    if (node.kind == NodeKind::InputMerge) {
      s = entry_set;
    } else if (node.kind == NodeKind::Return) {
      s = return_set[g.sites[node.site].local];
    } else if (node.kind == NodeKind::Merge &&
               !(set_of[local(node.inputs[0].node)] == set_of[local(node.inputs[1].node)] &&
                 set_of[local(node.inputs[0].node)] == set_of[local(node.inputs[2].node)])) {
      s = intern({1 + nsites + merges++});
      heads[l] = true;
    } else if (node.kind == NodeKind::Call) {
      continue;  // below, once every node its site reads has its set
    } else {
      for (const Port& p : node.inputs) {
        std::uint32_t in = set_of[local(p.node)];
        s = s == kNone ? in : join(s, in);
      }
      if (s == kNone) s = entry_set;
    }
    block_of[l] = block_for(s);
    set_of[l] = s;
  }
  // A call site's Calls wait for all its arguments (the callee is entered when every Call has
  // arrived, so nothing is lost) and form one node, where the last of them stands: the events
  // of every Call of the site. Calls have no consumer in the body.
  for (std::uint32_t k = 0; k < nsites; ++k) {
    const CallSite& site = g.sites[b.sites[k]];
    std::uint32_t s = kNone;
    for (NodeId c : site.calls) {
      std::uint32_t in = set_of[local(g.nodes[c].inputs[0].node)];
      s = s == kNone ? in : join(s, in);
    }
    internal_check(s != kNone, "a call site without Calls");
    std::uint32_t block = block_for(s);
    for (NodeId c : site.calls) {
      block_of[local(c)] = block;
      set_of[local(c)] = s;
    }
  }

  // Output slots, in topological order.
  std::vector<std::uint32_t> slot_of(n, 0);  // per local node: its first output slot
  for (std::uint32_t l : order) {
    slot_of[l] = sc.num_slots;
    sc.num_slots += g.nodes[b.nodes[l]].num_outputs();
  }

  // The nodes, block by block.
  std::vector<std::vector<std::uint32_t>> members(nblocks);
  for (std::uint32_t l : order)
    members[block_of[l]].push_back(l);
  sc.blocks.resize(nblocks);
  std::vector<std::vector<Successor>> succ(nblocks);
  // The last Call of each site in the topological order: the site's node stands there.
  std::vector<std::uint32_t> place(n, 0);
  for (std::uint32_t k = 0; k < order.size(); ++k)
    place[order[k]] = k;
  std::vector<std::uint32_t> last_call(nsites, 0);
  for (std::uint32_t k = 0; k < nsites; ++k) {
    last_call[k] = local(g.sites[b.sites[k]].calls[0]);
    for (NodeId c : g.sites[b.sites[k]].calls)
      if (place[local(c)] >= place[last_call[k]]) last_call[k] = local(c);
  }

  for (std::uint32_t bi = 0; bi < nblocks; ++bi) {
    Block& blk = sc.blocks[bi];
    blk.first = static_cast<std::uint32_t>(sc.nodes.size());
    std::vector<std::uint32_t> preds;
    for (std::uint32_t l : members[bi]) {
      const Node& node = g.nodes[b.nodes[l]];
      ScheduledNode s;
      s.kind = node.kind;
      s.nout = static_cast<std::uint16_t>(node.num_outputs());
      s.in = static_cast<std::uint32_t>(sc.inputs.size());
      s.out = slot_of[l];
      s.pos = node.pos;
      s.index = node.index;
      s.site = node.site;
      s.value = node.value;
      s.info = &node;
      const std::vector<Port>* node_ins = &node.inputs;
      std::vector<Port> site_ins;
      if (node.kind == NodeKind::Call) {
        const CallSite& site = g.sites[node.site];
        if (l != last_call[site.local]) continue;  // run with the site's last Call
        for (NodeId c : site.calls)
          site_ins.push_back(g.nodes[c].inputs[0]);
        node_ins = &site_ins;
      }
      const std::vector<Port>& ins = *node_ins;
      internal_check(node.num_outputs() <= UINT16_MAX, "a graph node with 65536 outputs");
      if (!is_source(node)) {
        internal_check(ins.size() <= UINT16_MAX, "a graph node with 65536 inputs");
        s.nin = static_cast<std::uint16_t>(ins.size());
        for (std::uint32_t i = 0; i < ins.size(); ++i) {
          const Port& p = ins[i];
          sc.inputs.push_back(slot_of[local(p.node)] + p.index);
          std::uint32_t from = block_of[local(p.node)];
          if (heads[l]) {
            auto it = std::find_if(succ[from].begin(), succ[from].end(),
                                   [&](const Successor& x) { return x.block == bi; });
            if (it == succ[from].end()) it = succ[from].insert(succ[from].end(), {bi, 0});
            it->merge_inputs |= 1u << i;
          } else if (from != bi && std::find(preds.begin(), preds.end(), from) == preds.end()) {
            internal_check(!blk.merge, "a node of a Merge's block reads another block");
            preds.push_back(from);
          }
        }
      }
      if (heads[l]) {
        internal_check(sc.nodes.size() == blk.first, "a Merge does not head its block");
        blk.merge = true;
      }
      if (node.op) s.op = node.op->kind();
      if (is_source(node)) {
        ++blk.sources;
      } else {
        sc.nodes.push_back(s);
      }
    }
    blk.end = static_cast<std::uint32_t>(sc.nodes.size());
    for (std::uint32_t p : preds)
      succ[p].push_back(Successor{bi, 0});
    bool external = bi == sc.entry || std::find(sc.return_block.begin(), sc.return_block.end(),
                                                bi) != sc.return_block.end();
    blk.pending = blk.merge ? 3 : static_cast<std::int32_t>(preds.size()) + (external ? 1 : 0);
    internal_check(blk.pending > 0, "a block of the graph has nothing to wait for");
  }
  for (std::uint32_t bi = 0; bi < nblocks; ++bi) {
    sc.blocks[bi].succ = static_cast<std::uint32_t>(sc.successors.size());
    sc.successors.insert(sc.successors.end(), succ[bi].begin(), succ[bi].end());
    sc.blocks[bi].succ_end = static_cast<std::uint32_t>(sc.successors.size());
  }

  sc.return_slots.resize(nsites);
  for (std::uint32_t k = 0; k < nsites; ++k)
    for (NodeId r : g.sites[b.sites[k]].returns)
      sc.return_slots[k].push_back(slot_of[local(r)]);
  for (NodeId in : b.inputs)
    sc.input_slots.push_back(slot_of[local(in)]);
  sc.exits = static_cast<std::uint32_t>(b.exits.size());
  return sc;
}

}  // namespace adlang::graph
