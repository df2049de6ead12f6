#include "semantics/graph/schedule.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <queue>
#include <unordered_map>

#include "lang/diagnostics.hpp"

namespace adlang::graph {
namespace {

using EventSet = std::vector<std::uint32_t>;  // sorted event ids

// Nodes whose inputs come from another body (or from the caller): the sources of a body.
bool is_source(const Node& n) {
  return n.kind == NodeKind::InputMerge || n.kind == NodeKind::Return;
}

// A topological order of the body's nodes along its own edges (Kahn; of the nodes ready, the
// first in the body's evaluation order, Node::pos, then by local index). A block runs its calls
// in this order, and at one thread the first call's subtree runs before the next call's
// (executor.cpp, run_block): sequential evaluation's order, so that where a call goes undefined
// and a later one would run out of fuel, the graph reports the same undefinedness.
std::vector<std::uint32_t> topological_order(const Graph& g, const Body& b) {
  const std::uint32_t n = static_cast<std::uint32_t>(b.nodes.size());
  // Each node's key, read once: nodes are large and scattered, and a gradient's body has 10^5.
  std::vector<std::uint64_t> key(n);
  for (std::uint32_t l = 0; l < n; ++l)
    key[l] = (static_cast<std::uint64_t>(g.nodes[b.nodes[l]].pos) << 32) | l;
  std::vector<std::uint32_t> missing(n, 0);
  // The consumers of each node, in one array: node l's are consumers[first[l] .. first[l+1])
  // (a vector per node cost an allocation per node, for every run of the graph). Whether every
  // edge goes from a smaller key to a larger one is noted on the way: then the smallest key
  // not yet taken is always ready, and Kahn's order is the order of the keys.
  std::vector<std::uint32_t> first(n + 1, 0);
  bool ascending = true;
  for (std::uint32_t l = 0; l < n; ++l) {
    const Node& node = g.nodes[b.nodes[l]];
    if (is_source(node)) continue;
    for (const Port& p : node.inputs) {
      ++missing[l];
      ++first[p.node - b.first + 1];
      ascending = ascending && key[p.node - b.first] < key[l];
    }
  }
  std::vector<std::uint32_t> order;
  order.reserve(n);
  if (ascending) {
    if (!std::is_sorted(key.begin(), key.end())) std::sort(key.begin(), key.end());
    for (std::uint64_t k : key)
      order.push_back(static_cast<std::uint32_t>(k));
    return order;
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
  std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> ready;
  for (std::uint32_t l = 0; l < n; ++l)
    if (missing[l] == 0) ready.push(key[l]);
  while (!ready.empty()) {
    const std::uint32_t l = static_cast<std::uint32_t>(ready.top());
    ready.pop();
    order.push_back(l);
    for (std::uint32_t k = first[l]; k < first[l + 1]; ++k)
      if (--missing[consumers[k]] == 0) ready.push(key[consumers[k]]);
  }
  internal_check(order.size() == n, "a graph body has a cycle");
  return order;
}

// The guarded ranges of one block (schedule.hpp, Guard), and an order of its nodes in which
// the nodes of each range are contiguous. A node is under guard (p, k) when it can receive
// tokens only through output k of a Switch with predicate p: it reads such an output, or a
// node of the block under (p, k) (a Merge only through its predicate, a call site only through
// its control Call, which is what decides whether either fires). The ranges must be nested or
// disjoint, as the lowering's structured conditionals make them: each guard has one parent, the
// innermost guard of the Switches giving it, and a node's guards are a path to a root. The
// block's order is a topological order of its ranges and nodes, level by level (ties: the
// original order). A block where either fails keeps its order and has no range.
//
// Linear in the block's nodes and edges, plus the steps up the tree between an edge's two ends
// (one per Switch level an edge crosses; a body nested 4000 conditionals deep is laid out in
// milliseconds). Nothing recurses.
class BlockGuards {
 public:
  struct Step {
    enum Kind { Node, Open, Close } kind;
    std::uint32_t value;  // the local node, or the guard
  };
  std::vector<Step> steps;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> keys;  // per guard: (predicate slot, side)

  // `members`: the block's nodes (local ids) in a topological order, `emitted[i]` whether
  // member i is run (not a source, not a call site's earlier Call); `member_index[l]` the index
  // of member l; `inputs_of(l)` the ports node l reads as the block runs it; `in_block(port)`,
  // `slot(port)` and `node_of(port)` say where a port is.
  // The block's order, without ranges.
  explicit BlockGuards(const std::vector<std::uint32_t>& members) { keep(members); }

  template <class Inputs, class InBlock, class Slot, class NodeOf>
  BlockGuards(const Graph& g, const Body& b, const std::vector<std::uint32_t>& members,
              const std::vector<bool>& emitted, const std::vector<std::uint32_t>& member_index,
              Inputs inputs_of, InBlock in_block, Slot slot, NodeOf node_of) {
    if (!arrange(g, b, members, emitted, member_index, inputs_of, in_block, slot, node_of))
      keep(members);
  }

 private:
  void keep(const std::vector<std::uint32_t>& members) {
    keys.clear();
    steps.clear();
    for (std::uint32_t l : members)
      steps.push_back({Step::Node, l});
  }

  static constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<std::uint32_t> parent_, depth_;  // per guard

  std::uint32_t depth(std::uint32_t x) const { return x == kNone ? 0 : depth_[x]; }

  // The deeper of two guards on one path to a root, or false.
  bool combine(std::uint32_t& a, std::uint32_t b) const {
    if (b == kNone || a == b) return true;
    if (a == kNone) {
      a = b;
      return true;
    }
    std::uint32_t deep = depth(a) >= depth(b) ? a : b, shallow = deep == a ? b : a, x = deep;
    while (depth(x) > depth(shallow))
      x = parent_[x];
    if (x != shallow) return false;
    a = deep;
    return true;
  }

  template <class Inputs, class InBlock, class Slot, class NodeOf>
  bool arrange(const Graph& g, const Body& b, const std::vector<std::uint32_t>& members,
               const std::vector<bool>& emitted, const std::vector<std::uint32_t>& member_index,
               Inputs& inputs_of, InBlock& in_block, Slot& slot, NodeOf& node_of) {
    const std::uint32_t m = static_cast<std::uint32_t>(members.size());
    // Most blocks read no Switch (a gradient's block of 10^5 nodes among them).
    bool switches = false;
    for (std::uint32_t l : members)
      switches = switches || g.nodes[b.nodes[l]].kind == NodeKind::Switch;
    if (!switches) return false;

    // Each member's innermost guard.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> ids;
    std::vector<std::uint32_t> innermost(m, kNone);
    bool ok = true;
    auto guard_of = [&](const Port& p) {
      if (!in_block(p)) return kNone;
      const std::uint32_t j = member_index[node_of(p)];
      const Node& src = g.nodes[b.nodes[node_of(p)]];
      if (src.kind != NodeKind::Switch) return innermost[j];
      auto key = std::make_pair(slot(src.inputs[1]), p.index);
      auto [it, fresh] = ids.emplace(key, static_cast<std::uint32_t>(keys.size()));
      if (fresh) {
        keys.push_back(key);
        parent_.push_back(innermost[j]);
        depth_.push_back(depth(innermost[j]) + 1);
      } else if (parent_[it->second] != innermost[j]) {
        ok = false;  // two Switches on one predicate under different guards
      }
      return it->second;
    };
    for (std::uint32_t i = 0; i < m && ok; ++i) {
      if (!emitted[i]) continue;
      const Node& node = g.nodes[b.nodes[members[i]]];
      const std::vector<Port>& ins = inputs_of(members[i]);
      std::uint32_t x = kNone;
      if (node.kind == NodeKind::Merge) {
        x = guard_of(ins[2]);
      } else if (node.kind == NodeKind::Call) {
        x = guard_of(ins.back());
      } else {
        for (const Port& p : ins)
          ok = ok && combine(x, guard_of(p));
        // An Exit must fire; a body whose output could be absent is not ours to shortcut.
        if (node.kind == NodeKind::Exit && x != kNone) ok = false;
      }
      innermost[i] = x;
    }
    const std::uint32_t nguards = static_cast<std::uint32_t>(keys.size());
    if (!ok || nguards == 0) return false;

    // Items: the members (0 .. m), then the guards (m + guard), each at the level of its
    // innermost guard or parent (the root: nguards). An item's rank is the original position
    // of its first member.
    const std::uint32_t root = nguards;
    auto level_of = [&](std::uint32_t item) {
      std::uint32_t x = item < m ? innermost[item] : parent_[item - m];
      return x == kNone ? root : x;
    };
    std::vector<std::uint32_t> rank(m + nguards, kNone);
    for (std::uint32_t i = 0; i < m; ++i) {
      rank[i] = i;
      for (std::uint32_t x = innermost[i]; x != kNone && rank[m + x] == kNone; x = parent_[x])
        rank[m + x] = i;
    }
    std::vector<std::uint32_t> level_size(nguards + 1, 0);
    for (std::uint32_t it = 0; it < m + nguards; ++it)
      ++level_size[level_of(it)];
    // Edges, each between the two items under the lowest guard common to its ends.
    std::vector<std::vector<std::uint32_t>> after(m + nguards);
    std::vector<std::uint32_t> missing(m + nguards, 0);
    for (std::uint32_t i = 0; i < m; ++i) {
      for (const Port& p : inputs_of(members[i])) {
        if (!in_block(p)) continue;
        const std::uint32_t j = member_index[node_of(p)];
        std::uint32_t xi = innermost[i], xj = innermost[j], to = i, from = j;
        while (depth(xi) > depth(xj)) {
          to = m + xi;
          xi = parent_[xi];
        }
        while (depth(xj) > depth(xi)) {
          from = m + xj;
          xj = parent_[xj];
        }
        while (xi != xj) {
          to = m + xi;
          xi = parent_[xi];
          from = m + xj;
          xj = parent_[xj];
        }
        if (to == from) continue;
        after[from].push_back(to);
        ++missing[to];
      }
    }
    // Kahn's algorithm per level, smallest rank first, a guard's level in place of its item.
    using Ready =
        std::priority_queue<std::pair<std::uint32_t, std::uint32_t>,
                            std::vector<std::pair<std::uint32_t, std::uint32_t>>, std::greater<>>;
    std::vector<Ready> ready(nguards + 1);
    for (std::uint32_t it = 0; it < m + nguards; ++it)
      if (missing[it] == 0) ready[level_of(it)].push({rank[it], it});
    std::vector<std::uint32_t> done(nguards + 1, 0);
    auto finish = [&](std::uint32_t it) {
      ++done[level_of(it)];
      for (std::uint32_t x : after[it])
        if (--missing[x] == 0) ready[level_of(x)].push({rank[x], x});
    };
    std::vector<std::uint32_t> open{root};
    while (!open.empty()) {
      const std::uint32_t level = open.back();
      if (ready[level].empty()) {
        if (done[level] != level_size[level]) return false;  // a cycle between ranges
        open.pop_back();
        if (level != root) {
          steps.push_back({Step::Close, level});
          finish(m + level);
        }
        continue;
      }
      const std::uint32_t it = ready[level].top().second;
      ready[level].pop();
      if (it < m) {
        steps.push_back({Step::Node, members[it]});
        finish(it);
      } else {
        steps.push_back({Step::Open, it - m});
        open.push_back(it - m);
      }
    }
    return true;
  }
};

// Decides which constants of block `bi` are folded into their reader (ScheduledNode::immediate):
// a Const or BoolConst without a range error, read by one node only, an Add, Op or Pred of the
// same block and the same innermost range (so that the reader runs exactly when the constant
// would: a range jumped over skips both), at most one constant per reader. The reader reads the
// constant's control input instead, which holds the token the constant would send but for its
// value (Sec. 3.2: a strict node's output is dead, bottom or absent as its inputs are).
void fold_constants(const Graph& g, const Body& b, const BlockGuards& guards, std::uint32_t bi,
                    const std::vector<std::uint32_t>& block_of,
                    std::vector<std::uint32_t>& range_of, std::vector<bool>& folded,
                    std::vector<std::uint32_t>& immediate_of) {
  constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<std::uint32_t> open;
  for (const BlockGuards::Step& step : guards.steps) {
    if (step.kind == BlockGuards::Step::Open) {
      open.push_back(step.value);
    } else if (step.kind == BlockGuards::Step::Close) {
      open.pop_back();
    } else {
      range_of[step.value] = open.empty() ? kNone : open.back();
    }
  }
  for (const BlockGuards::Step& step : guards.steps) {
    if (step.kind != BlockGuards::Step::Node) continue;
    const std::uint32_t l = step.value;
    const Node& node = g.nodes[b.nodes[l]];
    if ((node.kind != NodeKind::Const && node.kind != NodeKind::BoolConst) || node.error ||
        node.inputs.size() != 1 || node.outputs.size() != 1 || node.outputs[0].size() != 1)
      continue;
    const Dest& d = node.outputs[0][0];
    const Node& reader = g.nodes[d.node];
    if (reader.body != node.body) continue;
    const std::uint32_t r = d.node - b.first;
    if ((reader.kind != NodeKind::Add && reader.kind != NodeKind::Op &&
         reader.kind != NodeKind::Pred) ||
        block_of[r] != bi || range_of[r] != range_of[l] || immediate_of[r] != kNone ||
        d.input >= kNoImmediate)
      continue;
    folded[l] = true;
    immediate_of[r] = d.input;
  }
}

// The ranges of a schedule as SwitchElision needs them: per scheduled node its innermost
// range, per range where it starts, its parent, and whether the block checks it (schedule.hpp,
// Guard: a range not worth its check is not checked; its nodes run and write "absent").
struct Ranges {
  std::vector<std::uint32_t> innermost_at, start, parent;
  std::vector<bool> checked;

  // The innermost checked range of predicate slot `pred`, side `side` around node w, or
  // kNoGuard.
  std::uint32_t matching(const Schedule& sc, std::uint32_t w, std::uint32_t pred,
                         std::uint32_t side) const {
    for (std::uint32_t x = innermost_at[w]; x != kNoGuard; x = parent[x])
      if (checked[x] && sc.guards[x].pred == pred && sc.guards[x].side == side) return x;
    return kNoGuard;
  }
  // The innermost checked range around node q, or kNoGuard.
  std::uint32_t checked_around(std::uint32_t q) const {
    std::uint32_t x = innermost_at[q];
    while (x != kNoGuard && !checked[x])
      x = parent[x];
    return x;
  }
};

// Switch elision (docs/graph.md, "Switches read through"). A node that runs only when a
// predicate p is live and selects side k reads d's slot where it read output k of a Switch
// (d, p): there that output is d's token (Sec. 3.2; under Deadness::Elide no token is dead).
// A node runs only so when it lies in a checked range of (p, k) of its block, or its block
// waits for the return of a call site that does (a call made is a range entered: its block
// waits for the site's block, and so for the Switch). The Switch must not itself be skipped
// while that node or call site runs: no checked range around the Switch, or one of the same
// block around them too. A Switch none of whose outputs is then read leaves the schedule, and
// its firing is counted by the Pred computing p, of its block and innermost range
// (ScheduledNode::elided): in a body, the values of one context are all present or all
// absent, so the Switch (d, p) fires exactly when p is present, and the Pred, which the same
// jumps skip, then fires. What every node computes and every count are unchanged; a block
// runs fewer nodes. A range too short to be worth its check for its own sake is checked when
// that lets a Switch leave (a check costs less than a Switch).
class SwitchElision {
 public:
  // `waits`: per block, the scheduled call sites whose returns it waits for.
  SwitchElision(Schedule& sc, Ranges& rg, const std::vector<std::vector<std::uint32_t>>& waits)
      : sc_(sc), rg_(rg), waits_(waits) {}

  void run() {
    if (sc_.guards.empty()) return;
    const std::uint32_t nn = static_cast<std::uint32_t>(sc_.nodes.size());
    producer_.assign(sc_.num_slots, kNone);
    block_.assign(nn, 0);
    for (std::uint32_t q = 0; q < nn; ++q)
      for (std::uint32_t k = 0; k < sc_.nodes[q].nout; ++k)
        producer_[sc_.nodes[q].out + k] = q;
    for (std::uint32_t bi = 0; bi < sc_.blocks.size(); ++bi)
      for (std::uint32_t q = sc_.blocks[bi].first; q < sc_.blocks[bi].end; ++q)
        block_[q] = bi;
    // First with every range checked, to learn which short ones let a Switch leave; then
    // with those and the long ones.
    const std::vector<bool> worth = rg_.checked;
    if (std::find(worth.begin(), worth.end(), false) != worth.end()) {
      rg_.checked.assign(worth.size(), true);
      std::vector<Step> log;
      read_through(&log);
      std::vector<std::uint32_t> extra;
      const std::vector<bool> gone = leaving(extra);
      rg_.checked = worth;
      for (const Step& st : log)
        if (gone[st.sw]) rg_.checked[st.range] = true;
      for (std::size_t k = log.size(); k-- > 0;)
        sc_.inputs[log[k].input] = log[k].from;
    }
    if (!read_through(nullptr)) return;
    std::vector<std::uint32_t> extra;
    const std::vector<bool> gone = leaving(extra);
    for (std::uint32_t p = 0; p < nn; ++p) {
      sc_.nodes[p].fires = static_cast<std::uint8_t>(sc_.nodes[p].fires + extra[p]);
      sc_.nodes[p].elided = static_cast<std::uint8_t>(sc_.nodes[p].elided + extra[p]);
    }
    close_gaps(gone);
  }

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  // (A block that waits for many returns, as an adjoint body's over thousands of inputs does,
  // is not searched for them: linear in the body.)
  static constexpr std::size_t kMaxWaits = 16;

  // One read redirected past Switch `sw`, by range `range`: Schedule::inputs[input] was `from`.
  struct Step {
    std::uint32_t input, from, sw, range;
  };

  // The checked range by which output `side` of Switch q is d's token whenever node w (the
  // reader, or a call site whose return the reader's block waits for) has run, or kNoGuard.
  std::uint32_t known(std::uint32_t q, std::uint32_t side, std::uint32_t w) const {
    const std::uint32_t x = rg_.checked_around(q);
    if (x != kNoGuard && !(block_[q] == block_[w] && rg_.start[x] <= w && w < sc_.guards[x].end))
      return kNoGuard;
    return rg_.matching(sc_, w, sc_.inputs[sc_.nodes[q].in + 1], side);
  }

  // Redirects every read it can past its Switches; whether it did any.
  bool read_through(std::vector<Step>* log) {
    bool any = false;
    const std::uint32_t nn = static_cast<std::uint32_t>(sc_.nodes.size());
    for (std::uint32_t r = 0; r < nn; ++r) {
      const ScheduledNode& reader = sc_.nodes[r];
      const std::vector<std::uint32_t>& waits = waits_[block_[r]];
      for (std::uint32_t i = 0; i < reader.nin; ++i) {
        std::uint32_t& slot = sc_.inputs[reader.in + i];
        for (std::uint32_t q = producer_[slot]; q != kNone && sc_.nodes[q].kind == NodeKind::Switch;
             q = producer_[slot]) {
          const std::uint32_t side = slot - sc_.nodes[q].out;
          std::uint32_t by = known(q, side, r);
          if (waits.size() <= kMaxWaits)
            for (std::size_t k = 0; k < waits.size() && by == kNoGuard; ++k)
              by = known(q, side, waits[k]);
          if (by == kNoGuard) break;
          if (log) log->push_back(Step{reader.in + i, slot, q, by});
          slot = sc_.inputs[sc_.nodes[q].in];
          any = true;
        }
      }
    }
    return any;
  }

  // The Switches no node reads any more (the checked ranges' predicates are read by the
  // block), and per Pred the Switches it then counts (`extra`).
  std::vector<bool> leaving(std::vector<std::uint32_t>& extra) const {
    const std::uint32_t nn = static_cast<std::uint32_t>(sc_.nodes.size());
    std::vector<std::uint32_t> readers(sc_.num_slots, 0);
    for (const ScheduledNode& r : sc_.nodes)
      for (std::uint32_t i = 0; i < r.nin; ++i)
        ++readers[sc_.inputs[r.in + i]];
    for (std::uint32_t x = 0; x < sc_.guards.size(); ++x)
      if (rg_.checked[x]) ++readers[sc_.guards[x].pred];
    std::vector<bool> gone(nn, false);
    extra.assign(nn, 0);
    for (std::uint32_t q = nn; q-- > 0;) {  // readers first: a Switch may read another
      const ScheduledNode& sw = sc_.nodes[q];
      if (sw.kind != NodeKind::Switch || readers[sw.out] != 0 || readers[sw.out + 1] != 0) continue;
      const std::uint32_t p = producer_[sc_.inputs[sw.in + 1]];
      if (p == kNone || sc_.nodes[p].kind != NodeKind::Pred || block_[p] != block_[q] ||
          rg_.innermost_at[p] != rg_.innermost_at[q] || sc_.nodes[p].fires + extra[p] >= UINT8_MAX)
        continue;
      ++extra[p];
      --readers[sc_.inputs[sw.in]];
      --readers[sc_.inputs[sw.in + 1]];
      gone[q] = true;
    }
    return gone;
  }

  // Removes the nodes `gone` from the schedule: its blocks and ranges shift with them.
  void close_gaps(const std::vector<bool>& gone) {
    const std::uint32_t nn = static_cast<std::uint32_t>(sc_.nodes.size());
    std::vector<std::uint32_t> to(nn + 1, 0);  // where each old index lands
    std::vector<ScheduledNode> kept;
    std::vector<std::uint32_t> innermost;
    // The kept nodes' input entries only: a Switch that left may read another that left (a
    // value routed into a branch and bound there unused), whose slot no node writes.
    std::vector<std::uint32_t> inputs;
    for (std::uint32_t q = 0; q < nn; ++q) {
      to[q] = static_cast<std::uint32_t>(kept.size());
      if (gone[q]) continue;
      kept.push_back(sc_.nodes[q]);
      kept.back().in = static_cast<std::uint32_t>(inputs.size());
      inputs.insert(inputs.end(), sc_.inputs.begin() + sc_.nodes[q].in,
                    sc_.inputs.begin() + sc_.nodes[q].in + sc_.nodes[q].nin);
      innermost.push_back(rg_.innermost_at[q]);
    }
    to[nn] = static_cast<std::uint32_t>(kept.size());
    sc_.nodes = std::move(kept);
    sc_.inputs = std::move(inputs);
    rg_.innermost_at = std::move(innermost);
    for (Block& blk : sc_.blocks) {
      blk.first = to[blk.first];
      blk.end = to[blk.end];
    }
    for (std::uint32_t x = 0; x < sc_.guards.size(); ++x) {
      rg_.start[x] = to[rg_.start[x]];
      sc_.guards[x].end = to[sc_.guards[x].end];
    }
  }

  Schedule& sc_;
  Ranges& rg_;
  const std::vector<std::vector<std::uint32_t>>& waits_;
  std::vector<std::uint32_t> producer_;  // per slot: the scheduled node writing it
  std::vector<std::uint32_t> block_;     // per scheduled node: its block
};

// Folded tails (docs/graph.md, "Folded tails"). A block C that is a Merge M on the body's
// output and the Exit reading it, and nothing else, runs after the block computing M's taken
// input: in ack, fib and tak, once per activation, a block of its own for a Merge and an
// Exit. Instead, the block A_k computing M's input k ends with a tail: an Exit that reads that
// input and M's predicate p, and fires only when p is live and selects k
// (ScheduledNode::side), counting M's firing and its own. A_k must see p: p is computed in the
// entry block, which runs before every other block of the activation (its calls' children
// are queued, and handed to other workers only between blocks), or in A_k. (A tail in a return
// block or a Merge's block thus reads a slot of the entry block, which it does not wait for, as
// every node of a block other than the entry may: make_schedule, "the entry is implied".) C is
// no longer told of input k: with p live it now waits for an
// input that never comes and never runs. With p bottom (counted as all of its inputs,
// Deadness::Elide) the tails, which fire only on a live p, send nothing, and C runs and sends
// p's bottom; but when both sides are folded and one tail's block runs whenever p is computed
// (the entry block or p's own), that tail sends the bottom (`sends_bottom`) and C is told of
// nothing: it never runs. So exactly one Exit fires per activation, with M's token, as before,
// and every count is unchanged. `start`: per range, the node it starts at.
//
// A chain of conditionals folds further (docs/graph.md, "Folded tails"): when C is a Merge M'
// whose output only a tail reads (ack's `else if n < 0.5 then ack(m - 1, 1) else ack(..)`, whose
// Merge on n < 0.5 feeds the tail of the Merge on m < 0.5), the block computing M''s input k
// ends with a longer tail: it reads that input and the predicates of M' and of the tail, and
// fires only when each is live and selects its side (bit j of ScheduledNode::side for the
// predicate in input j + 1), counting every Merge's firing and the Exit's. Such a tail sends no
// bottom: C stays told of M''s predicate, and runs, as before, only when it is not live. Each
// call folds one more level; `start` (per range, the node it starts at) follows the nodes.
// Returns whether anything was folded.
bool fold_merge_tails(Schedule& sc, std::vector<std::uint32_t>& start) {
  const std::uint32_t nblocks = static_cast<std::uint32_t>(sc.blocks.size());
  constexpr std::uint32_t kNone = UINT32_MAX;
  // The block that writes each slot (the Returns' and the inputs' included).
  std::vector<std::uint32_t> writer(sc.num_slots, kNone);
  for (std::uint32_t bi = 0; bi < nblocks; ++bi)
    for (std::uint32_t q = sc.blocks[bi].first; q < sc.blocks[bi].end; ++q)
      for (std::uint32_t k = 0; k < sc.nodes[q].nout; ++k)
        writer[sc.nodes[q].out + k] = bi;
  for (std::size_t k = 0; k < sc.return_slots.size(); ++k)
    for (std::uint32_t r : sc.return_slots[k])
      writer[r] = sc.return_block[k];
  for (std::uint32_t in : sc.input_slots)
    writer[in] = sc.entry;
  // Per Merge block, the inputs it is told of (an input an earlier call folded is not).
  std::vector<std::uint32_t> told(nblocks, 0);
  for (const Successor& x : sc.successors)
    told[x.block] |= x.merge_inputs;
  // Per block, the tails appended to it; per Merge block, the sides it is no longer told of.
  std::vector<std::vector<ScheduledNode>> tails(nblocks);
  std::vector<std::uint32_t> dropped(nblocks, 0);
  for (std::uint32_t c = 0; c < nblocks; ++c) {
    const Block& blk = sc.blocks[c];
    if (!blk.merge || blk.end - blk.first != 2 || blk.succ != blk.succ_end) continue;
    const ScheduledNode& m = sc.nodes[blk.first];
    const ScheduledNode& exit = sc.nodes[blk.first + 1];
    if (m.kind != NodeKind::Merge || m.side != kNoSide || sc.inputs[exit.in] != m.out) continue;
    // The Exit, or a tail (its predicates: inputs 1 .. nin - 1) that sends no bottom.
    const bool chain = exit.kind == NodeKind::Merge && exit.side != kNoSide;
    if (!(exit.kind == NodeKind::Exit || (chain && !exit.sends_bottom)) ||
        (chain && exit.nin > kMaxTailPredicates))
      continue;
    const std::uint32_t pred = sc.inputs[m.in + 2];
    // A tail whose block runs whenever p is computed: its block and its index there.
    std::uint32_t always = kNone, always_at = 0;
    for (std::uint32_t k = 0; k < 2; ++k) {
      const std::uint32_t from = writer[sc.inputs[m.in + k]];
      if (!(told[c] & (1u << k)) || from == kNone || from == c) continue;
      // Every predicate the tail reads is computed by the entry block or by the tail's own.
      bool sees = writer[pred] == sc.entry || writer[pred] == from;
      for (std::uint32_t i = 1; chain && i < exit.nin; ++i) {
        const std::uint32_t w = writer[sc.inputs[exit.in + i]];
        sees = sees && (w == sc.entry || w == from);
      }
      if (!sees) continue;
      ScheduledNode t = exit;
      t.kind = NodeKind::Merge;  // (the executor's Merge case runs it: ScheduledNode::side)
      t.in = static_cast<std::uint32_t>(sc.inputs.size());
      t.nin = chain ? exit.nin + 1 : 2;
      t.side = static_cast<std::uint8_t>(chain ? k | (exit.side << 1) : k);
      t.guard = kNoGuard;
      sc.inputs.push_back(sc.inputs[m.in + k]);
      sc.inputs.push_back(pred);
      for (std::uint32_t i = 1; chain && i < exit.nin; ++i)
        sc.inputs.push_back(sc.inputs[exit.in + i]);
      tails[from].push_back(t);
      dropped[c] |= 1u << k;
      if (!chain && (from == sc.entry || from == writer[pred])) {
        always = from;
        always_at = static_cast<std::uint32_t>(tails[from].size() - 1);
      }
    }
    // With both sides folded, a tail that runs whenever p is computed also sends a bottom p,
    // and the Merge's block is told of nothing: it never runs.
    if (dropped[c] == 3 && always != kNone) {
      tails[always][always_at].sends_bottom = true;
      dropped[c] |= 1u << 2;
    }
  }
  if (std::all_of(dropped.begin(), dropped.end(), [](std::uint32_t d) { return d == 0; }))
    return false;
  // The nodes, each block followed by its tails; ranges keep their nodes.
  std::vector<std::uint32_t> before(nblocks + 1, 0);  // tails appended to the blocks before
  for (std::uint32_t bi = 0; bi < nblocks; ++bi)
    before[bi + 1] = before[bi] + static_cast<std::uint32_t>(tails[bi].size());
  for (std::uint32_t x = 0; x < sc.guards.size(); ++x) {
    // A range lies in the block its start lies in, and ends at or before that block's end.
    std::uint32_t bi = 0;
    while (bi + 1 < nblocks && sc.blocks[bi].end <= start[x])
      ++bi;
    sc.guards[x].end += before[bi];
    start[x] += before[bi];
  }
  std::vector<ScheduledNode> nodes;
  nodes.reserve(sc.nodes.size() + before[nblocks]);
  for (std::uint32_t bi = 0; bi < nblocks; ++bi) {
    Block& blk = sc.blocks[bi];
    nodes.insert(nodes.end(), sc.nodes.begin() + blk.first, sc.nodes.begin() + blk.end);
    nodes.insert(nodes.end(), tails[bi].begin(), tails[bi].end());
    blk.first += before[bi];
    blk.end += before[bi + 1];
  }
  sc.nodes = std::move(nodes);
  // The Merge blocks are no longer told of the inputs their tails take.
  std::vector<Successor> successors;
  for (Block& blk : sc.blocks) {
    const std::uint32_t first = static_cast<std::uint32_t>(successors.size());
    for (std::uint32_t k = blk.succ; k < blk.succ_end; ++k) {
      Successor x = sc.successors[k];
      if (x.merge_inputs != 0) {
        x.merge_inputs &= ~dropped[x.block];
        if (x.merge_inputs == 0) continue;
      }
      successors.push_back(x);
    }
    blk.succ = first;
    blk.succ_end = static_cast<std::uint32_t>(successors.size());
  }
  for (Successor& x : successors)
    x.empty = sc.blocks[x.block].first == sc.blocks[x.block].end;
  sc.successors = std::move(successors);
  return true;
}

// The frame keeps only the slots something writes: a scheduled node's outputs, the Returns'
// and the body's inputs. Folded constants and elided Switches write none, and their slots
// leave (a smaller frame: primes's PrimeMinus keeps 21 of 45). Slots keep their order, so a
// node's outputs stay contiguous.
void compact_slots(Schedule& sc) {
  constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<bool> written(sc.num_slots, false);
  for (const ScheduledNode& n : sc.nodes)
    for (std::uint32_t k = 0; k < n.nout; ++k)
      written[n.out + k] = true;
  for (const std::vector<std::uint32_t>& rs : sc.return_slots)
    for (std::uint32_t r : rs)
      written[r] = true;
  for (std::uint32_t in : sc.input_slots)
    written[in] = true;
  std::vector<std::uint32_t> to(sc.num_slots, kNone);
  std::uint32_t kept = 0;
  for (std::uint32_t x = 0; x < sc.num_slots; ++x)
    if (written[x]) to[x] = kept++;
  if (kept == sc.num_slots) return;
  auto read = [&](std::uint32_t& x) {
    internal_check(to[x] != kNone, "a schedule reads a slot nothing writes");
    x = to[x];
  };
  for (ScheduledNode& n : sc.nodes)
    if (n.nout != 0) n.out = to[n.out];
  for (std::uint32_t& x : sc.inputs)
    read(x);
  for (std::vector<std::uint32_t>& rs : sc.return_slots)
    for (std::uint32_t& r : rs)
      r = to[r];
  for (std::uint32_t& in : sc.input_slots)
    in = to[in];
  for (std::uint32_t& x : sc.exported)
    read(x);
  for (Successor& x : sc.successors)
    if (x.merge_inputs != 0)
      for (std::uint32_t& m : x.merge_slots)
        read(m);
  // (A range left without a check never has its predicate read: kNone if it left.)
  for (Guard& gd : sc.guards)
    gd.pred = to[gd.pred];
  for (std::uint32_t q = 0; q < sc.nodes.size(); ++q)
    for (std::uint32_t x = sc.nodes[q].guard; x != kNoGuard; x = sc.guards[x].next)
      internal_check(sc.guards[x].pred != kNone, "a checked range's predicate has no slot");
  sc.num_slots = kept;
}

}  // namespace

Schedule make_schedule(const Graph& g, const Body& b, bool with_guards) {
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
    // Every other event comes after the entry block has run (its returns and Merges are
    // signalled by its calls and blocks, which run after it): the entry is implied.
    if (u.size() > 1 && u.front() == 0) u.erase(u.begin());
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

  // The ports node l reads as its block runs it (a call site's node: one per Call; a source
  // reads from other bodies).
  std::vector<std::vector<Port>> site_inputs(nsites);
  for (std::uint32_t k = 0; k < nsites; ++k)
    for (NodeId c : g.sites[b.sites[k]].calls)
      site_inputs[k].push_back(g.nodes[c].inputs[0]);
  const std::vector<Port> no_inputs;
  auto inputs_of = [&](std::uint32_t l) -> const std::vector<Port>& {
    const Node& node = g.nodes[b.nodes[l]];
    if (is_source(node)) return no_inputs;
    if (node.kind == NodeKind::Call && l == last_call[g.sites[node.site].local])
      return site_inputs[g.sites[node.site].local];
    return node.inputs;
  };
  auto node_of = [&](const Port& p) { return local(p.node); };
  auto slot = [&](const Port& p) { return slot_of[local(p.node)] + p.index; };
  // Per scheduled node: the innermost range it lies in; per range: where it starts, its parent.
  Ranges rg;
  std::vector<std::uint32_t> site_node(nsites, kNone);  // per local site: its scheduled node
  std::vector<std::uint32_t> member_index(n, 0);        // per local node: its index in its block
  // Constants folded into their reader (ScheduledNode::immediate): per constant whether it is,
  // per reader the input it reads it by.
  std::vector<bool> folded(n, false);
  std::vector<std::uint32_t> immediate_of(n, kNone);
  std::vector<std::uint32_t> range_of(n, kNone);  // per node: its innermost range in the block
  for (std::uint32_t bi = 0; bi < nblocks; ++bi) {
    Block& blk = sc.blocks[bi];
    blk.first = static_cast<std::uint32_t>(sc.nodes.size());
    std::vector<std::uint32_t> preds;
    std::vector<bool> emitted(members[bi].size());
    for (std::size_t i = 0; i < members[bi].size(); ++i) {
      const Node& node = g.nodes[b.nodes[members[bi][i]]];
      emitted[i] = !is_source(node) && (node.kind != NodeKind::Call ||
                                        members[bi][i] == last_call[g.sites[node.site].local]);
    }
    auto in_block = [&](const Port& p) { return block_of[local(p.node)] == bi; };
    for (std::uint32_t i = 0; i < members[bi].size(); ++i)
      member_index[members[bi][i]] = i;
    const BlockGuards guards = with_guards ? BlockGuards(g, b, members[bi], emitted, member_index,
                                                         inputs_of, in_block, slot, node_of)
                                           : BlockGuards(members[bi]);
    fold_constants(g, b, guards, bi, block_of, range_of, folded, immediate_of);
    std::vector<std::uint32_t> open;  // the ranges open
    for (const BlockGuards::Step& step : guards.steps) {
      if (step.kind == BlockGuards::Step::Open) {
        Guard gd;
        gd.pred = guards.keys[step.value].first;
        gd.side = guards.keys[step.value].second;
        rg.parent.push_back(open.empty() ? kNoGuard : open.back());
        rg.start.push_back(static_cast<std::uint32_t>(sc.nodes.size()));
        open.push_back(static_cast<std::uint32_t>(sc.guards.size()));
        sc.guards.push_back(gd);
        continue;
      }
      if (step.kind == BlockGuards::Step::Close) {
        // (A range of folded constants only is empty, and too short to be checked.)
        sc.guards[open.back()].end = static_cast<std::uint32_t>(sc.nodes.size());
        open.pop_back();
        continue;
      }
      const std::uint32_t l = step.value;
      if (folded[l]) continue;  // its reader reads it as an immediate
      const Node& node = g.nodes[b.nodes[l]];
      ScheduledNode s;
      s.kind = node.kind;
      s.nout = node.num_outputs();
      s.in = static_cast<std::uint32_t>(sc.inputs.size());
      s.out = slot_of[l];
      s.pos = node.pos;
      s.index = node.index;
      s.site = node.site;
      s.value = node.value;
      s.info = &node;
      // A call site runs with its last Call.
      if (node.kind == NodeKind::Call && l != last_call[g.sites[node.site].local]) continue;
      const std::vector<Port>& ins = inputs_of(l);  // none for a source
      if (!is_source(node)) {
        s.nin = static_cast<std::uint32_t>(ins.size());
        for (std::uint32_t i = 0; i < ins.size(); ++i) {
          const Port& p = ins[i];
          if (i == immediate_of[l]) {
            // The constant's control token, and its value.
            const Node& c = g.nodes[p.node];
            sc.inputs.push_back(slot(c.inputs[0]));
            s.immediate = static_cast<std::uint8_t>(i);
            s.fires = 2;
            s.value = c.value;
          } else {
            sc.inputs.push_back(slot_of[local(p.node)] + p.index);
          }
          std::uint32_t from = block_of[local(p.node)];
          if (heads[l]) {
            auto it = std::find_if(succ[from].begin(), succ[from].end(),
                                   [&](const Successor& x) { return x.block == bi; });
            if (it == succ[from].end()) it = succ[from].insert(succ[from].end(), {bi, 0});
            it->merge_inputs |= 1u << i;
          } else if (from != bi && from != sc.entry &&
                     std::find(preds.begin(), preds.end(), from) == preds.end()) {
            // (The entry block has run before any other block runs: it is no predecessor.)
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
      if (node.pred) s.pred = static_cast<std::uint8_t>(node.pred->kind());
      if (is_source(node)) {
        ++blk.sources;
      } else {
        if (node.kind == NodeKind::Call)
          site_node[g.sites[node.site].local] = static_cast<std::uint32_t>(sc.nodes.size());
        rg.innermost_at.push_back(open.empty() ? kNoGuard : open.back());
        sc.nodes.push_back(s);
      }
    }
    internal_check(open.empty(), "a guarded range is not closed");
    blk.end = static_cast<std::uint32_t>(sc.nodes.size());
    for (std::uint32_t p : preds)
      succ[p].push_back(Successor{bi, 0});
    bool external = bi == sc.entry || std::find(sc.return_block.begin(), sc.return_block.end(),
                                                bi) != sc.return_block.end();
    blk.pending = blk.merge ? 3 : static_cast<std::int32_t>(preds.size()) + (external ? 1 : 0);
    internal_check(blk.pending > 0, "a block of the graph has nothing to wait for");
  }
  // A range of fewer than kMinRange nodes is not worth its check: its nodes write "absent"
  // one by one, as without ranges (the thesis's primes has many such short sides: with every
  // range checked it ran 2.5% more instructions than without ranges, and slower).
  constexpr std::uint32_t kMinRange = 3;
  for (std::uint32_t x = 0; x < sc.guards.size(); ++x)
    rg.checked.push_back(sc.guards[x].end - rg.start[x] >= kMinRange);
  // Per block, the call sites whose returns are among its events.
  std::vector<std::vector<std::uint32_t>> waits(nblocks);
  for (std::uint32_t set = 0; set < sets.size(); ++set) {
    if (block_of_set[set] == UINT32_MAX) continue;
    for (std::uint32_t e : sets[set])
      if (e >= 1 && e <= nsites && site_node[e - 1] != kNone)
        waits[block_of_set[set]].push_back(site_node[e - 1]);
  }
  SwitchElision(sc, rg, waits).run();
  for (std::uint32_t bi = 0; bi < nblocks; ++bi) {
    sc.blocks[bi].succ = static_cast<std::uint32_t>(sc.successors.size());
    for (Successor x : succ[bi]) {
      const Block& to = sc.blocks[x.block];
      x.pending = to.pending;
      x.empty = to.first == to.end;
      if (x.merge_inputs != 0)
        for (std::uint32_t i = 0; i < 3; ++i)
          x.merge_slots[i] = sc.inputs[sc.nodes[to.first].in + i];
      sc.successors.push_back(x);
    }
    sc.blocks[bi].succ_end = static_cast<std::uint32_t>(sc.successors.size());
  }

  // A range's exports: its nodes' outputs that a node outside it reads (a Merge's block counts
  // its inputs by them, and frames are reused, so the slots must say "absent").
  std::vector<std::uint32_t> producer(sc.num_slots, UINT32_MAX);
  for (std::uint32_t q = 0; q < sc.nodes.size(); ++q)
    for (std::uint32_t k = 0; k < sc.nodes[q].nout; ++k)
      producer[sc.nodes[q].out + k] = q;
  // The checked ranges are chained at the node they start at, outermost (opened first) first
  // (a range whose nodes were all elided Switches has nothing left to skip).
  for (std::uint32_t x = static_cast<std::uint32_t>(sc.guards.size()); x-- > 0;) {
    if (!rg.checked[x] || sc.guards[x].end == rg.start[x]) continue;
    sc.guards[x].next = sc.nodes[rg.start[x]].guard;
    sc.nodes[rg.start[x]].guard = x;
  }
  std::vector<std::vector<std::uint32_t>> exports(sc.guards.size());
  for (std::uint32_t r = 0; r < sc.nodes.size(); ++r) {
    const ScheduledNode& reader = sc.nodes[r];
    for (std::uint32_t i = 0; i < reader.nin; ++i) {
      std::uint32_t slot_read = sc.inputs[reader.in + i];
      std::uint32_t q = producer[slot_read];
      if (q == UINT32_MAX) continue;
      for (std::uint32_t x = rg.innermost_at[q];
           x != kNoGuard && !(rg.start[x] <= r && r < sc.guards[x].end); x = rg.parent[x])
        exports[x].push_back(slot_read);
    }
  }
  for (std::uint32_t x = 0; x < sc.guards.size(); ++x) {
    std::sort(exports[x].begin(), exports[x].end());
    exports[x].erase(std::unique(exports[x].begin(), exports[x].end()), exports[x].end());
    sc.guards[x].exports = static_cast<std::uint32_t>(sc.exported.size());
    sc.exported.insert(sc.exported.end(), exports[x].begin(), exports[x].end());
    sc.guards[x].exports_end = static_cast<std::uint32_t>(sc.exported.size());
  }

  sc.return_slots.resize(nsites);
  for (std::uint32_t k = 0; k < nsites; ++k)
    for (NodeId r : g.sites[b.sites[k]].returns)
      sc.return_slots[k].push_back(slot_of[local(r)]);
  for (NodeId in : b.inputs)
    sc.input_slots.push_back(slot_of[local(in)]);
  sc.exits = static_cast<std::uint32_t>(b.exits.size());
  if (with_guards) {
    while (fold_merge_tails(sc, rg.start)) {
    }
  }
  compact_slots(sc);
  for (Block& blk : sc.blocks)
    blk.tail_only = blk.end - blk.first == 1 && blk.succ == blk.succ_end &&
                    sc.nodes[blk.first].side != kNoSide && sc.nodes[blk.first].guard == kNoGuard;
  return sc;
}

GraphSchedule make_graph_schedule(const Graph& g, bool with_guards) {
  GraphSchedule gs;
  gs.graph = &g;
  gs.nodes = g.nodes.size();
  gs.with_guards = with_guards;
  for (const Body& b : g.bodies)
    gs.bodies.push_back(make_schedule(g, b, with_guards));
  return gs;
}

}  // namespace adlang::graph
