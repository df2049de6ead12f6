#include "semantics/graph/inline_rd.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "lang/diagnostics.hpp"

namespace adlang::graph {
namespace {

std::uint64_t port_key(Port p) {
  return (static_cast<std::uint64_t>(p.node) << 32) | p.index;
}

// One rd's inlining (see inline_rd.hpp).
class Inliner {
 public:
  Inliner(Graph& g, const RdSites& rd, std::vector<bool>& removed)
      : g_(g),
        f_(g.sites[rd.forward_site]),
        a_(g.sites[rd.adjoint_site]),
        host_(f_.caller),
        fwd_(f_.callee),
        adj_(a_.callee),
        removed_(removed) {}

  void run() {
    g_.inlined_rd_names.push_back(g_.bodies[fwd_].name);
    number_ = static_cast<std::uint32_t>(g_.inlined_rd_names.size());
    // The Sync that starts the adjoint (the adjoint site's control argument), in the host.
    sync_ = g_.nodes[a_.calls.back()].inputs[0].node;
    internal_check(g_.nodes[sync_].kind == NodeKind::Sync && g_.nodes[sync_].body == host_,
                   "an rd's adjoint does not start from a Sync");
    shift_places();
    replace_boundary();
    wire_strictness();
    rewire();
    move_nodes();
    prune();
    filter_consumers();
  }

 private:
  Graph& g_;
  const CallSite f_, a_;
  const std::uint32_t host_, fwd_, adj_;
  std::vector<bool>& removed_;
  NodeId sync_ = kNoNode;
  std::uint32_t number_ = 0;                          // Node::inlined_rd of this rd's nodes
  std::uint32_t gate_place_ = 0;                      // Node::pos of the Gates on its outputs
  std::unordered_map<std::uint64_t, Port> replaced_;  // a removed node's port -> what replaces it
  std::vector<NodeId> producers_;                     // nodes whose consumers lost a node

  void remove(NodeId id) {
    removed_[id] = true;
    for (const Port& p : g_.nodes[id].inputs)
      producers_.push_back(p.node);
  }

  Port resolve(Port p) const {
    for (;;) {
      auto it = replaced_.find(port_key(p));
      if (it == replaced_.end()) return p;
      p = it->second;
    }
  }

  static std::uint32_t last_place(const Body& b, const Graph& g) {
    std::uint32_t m = 0;
    for (NodeId id : b.nodes)
      m = std::max(m, g.nodes[id].pos);
    return m;
  }

  // The forward nodes take the forward site's place in the host's evaluation order, the
  // adjoint's the adjoint site's; the host's nodes after each move up (Node::pos).
  void shift_places() {
    const std::uint32_t nf = last_place(g_.bodies[fwd_], g_), na = last_place(g_.bodies[adj_], g_);
    const std::uint32_t pf = f_.pos, pa = a_.pos;
    internal_check(pf < pa, "an rd's adjoint site before its forward site");
    auto shifted = [&](std::uint32_t p) { return p > pa ? p + nf + na : (p > pf ? p + nf : p); };
    for (NodeId id : g_.bodies[host_].nodes)
      g_.nodes[id].pos = shifted(g_.nodes[id].pos);
    for (std::uint32_t s : g_.bodies[host_].sites)
      g_.sites[s].pos = shifted(g_.sites[s].pos);
    for (NodeId id : g_.bodies[fwd_].nodes)
      if (g_.nodes[id].kind != NodeKind::InputMerge) g_.nodes[id].pos += pf;
    for (NodeId id : g_.bodies[adj_].nodes)
      if (g_.nodes[id].kind != NodeKind::InputMerge) g_.nodes[id].pos += pa + nf;
    gate_place_ = pa + nf + na;
  }

  // The nodes at the boundary of the two bodies, and what their ports become.
  void replace_boundary() {
    const Body& fb = g_.bodies[fwd_];
    const Body& ab = g_.bodies[adj_];
    for (std::uint32_t j = 0; j < fb.inputs.size(); ++j) {
      replaced_[port_key({fb.inputs[j], 0})] = g_.nodes[f_.calls[j]].inputs[0];
      remove(fb.inputs[j]);
    }
    for (std::uint32_t k = 0; k < fb.exits.size(); ++k) {
      replaced_[port_key({f_.returns[k], 0})] = g_.nodes[fb.exits[k]].inputs[0];
      remove(fb.exits[k]);
    }
    std::unordered_map<std::uint32_t, Port> kept;  // slot -> the port its Save keeps
    for (NodeId id : fb.nodes) {
      const Node& n = g_.nodes[id];
      if (n.kind != NodeKind::Save) continue;
      kept[n.index] = n.inputs[0];
      replaced_[port_key({id, 0})] = n.inputs[0];
      remove(id);
    }
    for (std::uint32_t k = 0; k < ab.inputs.size(); ++k) {
      bool control = k + 1 == ab.inputs.size();
      replaced_[port_key({ab.inputs[k], 0})] =
          control ? Port{sync_, 0} : g_.nodes[a_.calls[k]].inputs[0];
      remove(ab.inputs[k]);
    }
    for (NodeId id : ab.nodes) {
      const Node& n = g_.nodes[id];
      if (n.kind != NodeKind::Load) continue;
      auto it = kept.find(n.index);
      internal_check(it != kept.end(), "an inlined Load of a slot its forward body does not save");
      replaced_[port_key({id, 0})] = it->second;
      remove(id);
    }
    for (NodeId id : f_.calls)
      remove(id);
    for (NodeId id : a_.calls)
      remove(id);
    for (NodeId id : f_.returns)
      remove(id);
    // The rd's outputs: the adjoint's, held by the Sync (all arguments and the forward
    // activation defined), as the adjoint site's strict Calls held them.
    for (std::uint32_t k = 0; k < a_.returns.size(); ++k) {
      NodeId ret = a_.returns[k];
      remove(ret);
      remove(ab.exits[k]);
      if (g_.nodes[ret].outputs[0].empty()) continue;  // a cotangent R does not compute
      Port out = resolve(g_.nodes[ab.exits[k]].inputs[0]);
      if (!(out == Port{sync_, 0})) {
        NodeId gate = add_host_node(NodeKind::Gate, g_.nodes[ret].loc, gate_place_);
        graph::connect(g_, out, gate);
        graph::connect(g_, Port{sync_, 0}, gate);
        out = Port{gate, 0};
      }
      replaced_[port_key({ret, 0})] = out;
    }
  }

  NodeId add_host_node(NodeKind kind, SourceLoc loc, std::uint32_t pos) {
    NodeId id = graph::add_node(g_, kind, host_, loc, pos, 1);
    g_.nodes[id].role = BodyRole::Adjoint;
    g_.nodes[id].inlined_rd = number_;
    removed_.push_back(false);
    return id;
  }

  // The Sync also joins what the Calls were strict in: V and the free variables (the forward
  // Calls' arguments) and W (the adjoint Calls'); the control token is already in it.
  void wire_strictness() {
    // (A set: a gradient of 10^5 inputs joins as many, and a search of the Sync's inputs for
    // each made lowering quadratic.)
    std::unordered_set<std::uint64_t> in;
    for (const Port& p : g_.nodes[sync_].inputs)
      in.insert(port_key(p));
    auto join = [&](NodeId call) {
      Port p = g_.nodes[call].inputs[0];
      if (in.insert(port_key(p)).second) graph::connect(g_, p, sync_);
    };
    for (std::size_t j = 0; j + 1 < f_.calls.size(); ++j)
      join(f_.calls[j]);
    for (std::size_t k = 0; k + 1 < a_.calls.size(); ++k)
      join(a_.calls[k]);
  }

  // Every kept node of the host and of the two bodies reads what replaces a removed port.
  void rewire() {
    for (std::uint32_t b : {host_, fwd_, adj_}) {
      for (NodeId id : g_.bodies[b].nodes) {
        if (removed_[id]) continue;
        Node& n = g_.nodes[id];
        for (std::uint32_t i = 0; i < n.inputs.size(); ++i) {
          if (!removed_[n.inputs[i].node]) continue;
          Port p = resolve(n.inputs[i]);
          internal_check(!removed_[p.node], "an inlined rd's port has no replacement");
          n.inputs[i] = p;
          g_.nodes[p.node].outputs[p.index].push_back(Dest{id, i});
        }
      }
    }
  }

  void move_nodes() {
    for (std::uint32_t b : {fwd_, adj_}) {
      const BodyRole role = b == fwd_ ? BodyRole::Forward : BodyRole::Adjoint;
      for (NodeId id : g_.bodies[b].nodes) {
        if (removed_[id]) continue;
        Node& n = g_.nodes[id];
        n.body = host_;
        n.local = static_cast<std::uint32_t>(g_.bodies[host_].nodes.size());
        n.role = role;
        n.inlined_rd = number_;
        g_.bodies[host_].nodes.push_back(id);
      }
      g_.bodies[b].nodes.clear();
    }
  }

  std::size_t live_consumers(NodeId id) const {
    std::size_t c = 0;
    for (const auto& out : g_.nodes[id].outputs)
      for (const Dest& d : out)
        c += !removed_[d.node];
    return c;
  }

  // Adjoint nodes whose values nothing reads (the cotangents of N's free variables, and what
  // only they need): removed, as the adjoint's unread outputs were never observed.
  void prune() {
    std::vector<NodeId> work;
    for (NodeId id : g_.bodies[host_].nodes)
      if (!removed_[id] && g_.nodes[id].role == BodyRole::Adjoint && live_consumers(id) == 0)
        work.push_back(id);
    while (!work.empty()) {
      NodeId id = work.back();
      work.pop_back();
      if (removed_[id]) continue;
      remove(id);
      for (const Port& p : g_.nodes[id].inputs)
        if (!removed_[p.node] && g_.nodes[p.node].role == BodyRole::Adjoint &&
            g_.nodes[p.node].body == host_ && live_consumers(p.node) == 0)
          work.push_back(p.node);
    }
    Body& h = g_.bodies[host_];
    h.nodes.erase(
        std::remove_if(h.nodes.begin(), h.nodes.end(), [&](NodeId id) { return removed_[id]; }),
        h.nodes.end());
    for (std::uint32_t l = 0; l < h.nodes.size(); ++l)
      g_.nodes[h.nodes[l]].local = l;
  }

  // The consumers' lists of the nodes that fed a removed node.
  void filter_consumers() {
    std::sort(producers_.begin(), producers_.end());
    producers_.erase(std::unique(producers_.begin(), producers_.end()), producers_.end());
    for (NodeId id : producers_) {
      if (removed_[id]) continue;
      for (auto& out : g_.nodes[id].outputs)
        out.erase(
            std::remove_if(out.begin(), out.end(), [&](const Dest& d) { return removed_[d.node]; }),
            out.end());
    }
  }
};

}  // namespace

bool inlinable(const Graph& g, const RdSites& rd) {
  const CallSite& f = g.sites[rd.forward_site];
  const CallSite& a = g.sites[rd.adjoint_site];
  return f.caller == a.caller && g.bodies[f.callee].sites.empty() &&
         g.bodies[a.callee].sites.empty();
}

void inline_rds(Graph& g, const std::vector<RdSites>& rds) {
  if (rds.empty()) return;
  std::vector<bool> removed(g.nodes.size(), false);
  std::vector<bool> gone_site(g.sites.size(), false), gone_body(g.bodies.size(), false);
  std::vector<std::uint32_t> hosts;
  for (const RdSites& rd : rds) {
    hosts.push_back(g.sites[rd.forward_site].caller);
    internal_check(inlinable(g, rd), "an rd inlined whose bodies make calls");
    Inliner(g, rd, removed).run();
    gone_site[rd.forward_site] = gone_site[rd.adjoint_site] = true;
    gone_body[g.sites[rd.forward_site].callee] = gone_body[g.sites[rd.adjoint_site].callee] = true;
  }
  // The sites and bodies that were the rds', out of the numbering.
  std::vector<std::uint32_t> site_to(g.sites.size(), UINT32_MAX),
      body_to(g.bodies.size(), UINT32_MAX);
  std::vector<CallSite> sites;
  for (std::uint32_t s = 0; s < g.sites.size(); ++s) {
    if (gone_site[s]) continue;
    site_to[s] = static_cast<std::uint32_t>(sites.size());
    sites.push_back(std::move(g.sites[s]));
  }
  std::vector<Body> bodies;
  for (std::uint32_t b = 0; b < g.bodies.size(); ++b) {
    if (gone_body[b]) continue;
    body_to[b] = static_cast<std::uint32_t>(bodies.size());
    bodies.push_back(std::move(g.bodies[b]));
  }
  g.sites = std::move(sites);
  g.bodies = std::move(bodies);
  auto body = [&](std::uint32_t b) {
    internal_check(body_to[b] != UINT32_MAX, "a reference to an inlined rd's body");
    return body_to[b];
  };
  g.main = body(g.main);
  for (std::uint32_t s = 0; s < g.sites.size(); ++s) {
    CallSite& c = g.sites[s];
    c.number = s + 1;
    c.caller = body(c.caller);
    c.callee = body(c.callee);
    if (c.mirror != UINT32_MAX) {
      internal_check(site_to[c.mirror] != UINT32_MAX, "a call site mirrors an inlined rd's");
      c.mirror = site_to[c.mirror];
    }
  }
  for (Body& b : g.bodies) {
    for (std::uint32_t& s : b.sites)
      s = site_to[s];
    b.sites.erase(std::remove(b.sites.begin(), b.sites.end(), UINT32_MAX), b.sites.end());
    for (std::uint32_t l = 0; l < b.sites.size(); ++l)
      g.sites[b.sites[l]].local = l;
  }
  // A host keeps a tag only if it still has tagged sites (its other rds') or stores.
  for (std::uint32_t& h : hosts) {
    h = body(h);
    g.bodies[h].uses_store = false;
    for (std::uint32_t s : g.bodies[h].sites)
      g.bodies[h].uses_store = g.bodies[h].uses_store || g.sites[s].tagged;
  }
  bool stored = false;
  for (NodeId id = 0; id < g.nodes.size(); ++id) {
    if (removed[id]) continue;
    Node& n = g.nodes[id];
    n.body = body(n.body);
    if (n.kind == NodeKind::Call || n.kind == NodeKind::Return) n.site = site_to[n.site];
    if (n.kind == NodeKind::Save || n.kind == NodeKind::Load) {
      g.bodies[n.body].uses_store = true;
      stored = true;
    }
  }
  // Without a Save or Load left, the graph has no store (`--stats` prints no saved values).
  if (!stored) g.store_slots = 0;
}

}  // namespace adlang::graph
