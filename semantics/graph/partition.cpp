#include "semantics/graph/partition.hpp"

#include <map>
#include <sstream>
#include <tuple>

#include "lang/diagnostics.hpp"
#include "semantics/graph/dot.hpp"

namespace adlang::graph {

const char* to_string(PartKind k) {
  switch (k) {
    case PartKind::Node:
      return "Node";
    case PartKind::Site:
      return "Site";
    case PartKind::Copy:
      return "Copy";
    case PartKind::SiteCopy:
      return "SiteCopy";
    case PartKind::Send:
      return "Send";
    case PartKind::Recv:
      return "Recv";
  }
  return "?";
}

namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

PartNode make_node(PartKind kind, std::uint32_t body) {
  PartNode n;
  n.kind = kind;
  n.body = body;
  return n;
}

class Partitioner {
 public:
  Partitioner(const Graph& g, const std::vector<std::uint32_t>& rank_of, std::uint32_t ranks)
      : g_(g) {
    internal_check(rank_of.size() == g.nodes.size(), "a placement must place every node");
    p_.graph = &g;
    p_.rank_of = rank_of;
    p_.parts.resize(ranks);
    for (std::uint32_t r = 0; r < ranks; ++r)
      p_.parts[r].rank = r;
    for (std::uint32_t x : rank_of)
      internal_check(x < ranks, "a node is placed outside the partitions");
    // A call site fires as one unit (unite_call_sites in placement.hpp).
    for (const CallSite& s : g.sites) {
      for (NodeId c : s.calls)
        internal_check(rank_of[c] == rank_of[s.calls.back()], "a call site split by a placement");
      for (NodeId r : s.returns)
        internal_check(rank_of[r] == rank_of[s.calls.back()], "a call site split by a placement");
    }
  }

  Partitioned run() {
    mark_state_machine();
    for (const CallSite& s : g_.sites)
      p_.site_rank.push_back(p_.rank_of[s.calls.back()]);
    compute_needs();
    local_.assign(p_.parts.size(), std::vector<std::uint32_t>(g_.nodes.size(), kNone));
    site_node_.assign(p_.parts.size(), std::vector<std::uint32_t>(g_.sites.size(), kNone));
    site_copy_.assign(p_.parts.size(), std::vector<std::uint32_t>(g_.sites.size(), kNone));
    for (Partition& part : p_.parts)
      make_nodes(part);
    for (Partition& part : p_.parts)
      wire(part);
    for (Partition& part : p_.parts) {
      part.nodes_per_body.assign(g_.bodies.size(), 0);
      for (const PartNode& n : part.nodes)
        ++part.nodes_per_body[n.body];
    }
    return std::move(p_);
  }

 private:
  const Graph& g_;
  Partitioned p_;
  std::vector<std::vector<std::uint32_t>> local_;      // per rank, per graph node
  std::vector<std::vector<std::uint32_t>> site_node_;  // per rank, per site: its Site node
  std::vector<std::vector<std::uint32_t>> site_copy_;  // per rank, per site: its SiteCopy
  // Channels by (producer node or site, port, destination, site of the tag rule, admission).
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, bool>,
           std::uint32_t>
      channel_of_;

  // Sec. 5.4.3: the nodes that steer a body's activations (Return excluded): the control
  // input Merge, the Switches of the control token, the control Calls.
  void mark_state_machine() {
    p_.state_machine.assign(g_.nodes.size(), 0);
    for (NodeId id = 0; id < g_.nodes.size(); ++id) {
      const Node& n = g_.nodes[id];
      bool sm = false;
      if (n.kind == NodeKind::InputMerge) sm = n.control;
      if (n.kind == NodeKind::Call) sm = n.control;
      // A Switch's data input is made before it (the lowering routes outward first).
      if (n.kind == NodeKind::Switch) sm = p_.state_machine[n.inputs[0].node] != 0;
      p_.state_machine[id] = sm ? 1 : 0;
    }
  }

  // A partition needs the machine of every body it holds nodes of, and of every caller of a
  // body it needs (the frames of a callee are made by its callers' frames).
  void compute_needs() {
    for (Partition& part : p_.parts) {
      part.needs.assign(g_.bodies.size(), 0);
      for (NodeId id = 0; id < g_.nodes.size(); ++id)
        if (p_.rank_of[id] == part.rank) part.needs[g_.nodes[id].body] = 1;
      for (bool changed = true; changed;) {
        changed = false;
        for (const CallSite& s : g_.sites) {
          if (part.needs[s.callee] && !part.needs[s.caller]) {
            part.needs[s.caller] = 1;
            changed = true;
          }
        }
      }
    }
  }

  std::uint32_t add(Partition& part, PartNode n) {
    std::uint32_t id = static_cast<std::uint32_t>(part.nodes.size());
    part.nodes.push_back(std::move(n));
    return id;
  }

  static std::uint32_t output_count(const Graph& g, const PartNode& n) {
    switch (n.kind) {
      case PartKind::Node:
      case PartKind::Copy:
        return g.nodes[n.orig].num_outputs();
      case PartKind::Site:
        return static_cast<std::uint32_t>(g.sites[n.site].calls.size()) + 2;
      case PartKind::SiteCopy:
      case PartKind::Recv:
        return 1;
      case PartKind::Send:
        return 0;
    }
    return 0;
  }

  void make_nodes(Partition& part) {
    const std::uint32_t r = part.rank;
    for (NodeId id = 0; id < g_.nodes.size(); ++id) {
      const Node& n = g_.nodes[id];
      if (p_.rank_of[id] != r || n.kind == NodeKind::Call) continue;
      PartNode pn = make_node(PartKind::Node, n.body);
      pn.orig = id;
      local_[r][id] = add(part, std::move(pn));
    }
    for (std::uint32_t s = 0; s < g_.sites.size(); ++s) {
      if (p_.site_rank[s] != r) continue;
      PartNode pn = make_node(PartKind::Site, g_.sites[s].caller);
      pn.site = s;
      site_node_[r][s] = add(part, std::move(pn));
    }
    part.control.assign(g_.bodies.size(), kNone);
    for (std::uint32_t b = 0; b < g_.bodies.size(); ++b) {
      if (!part.needs[b]) continue;
      for (NodeId id : g_.bodies[b].nodes) {
        const Node& n = g_.nodes[id];
        if (!p_.state_machine[id] || p_.rank_of[id] == r) continue;
        if (n.kind == NodeKind::Call) {
          if (!part.needs[g_.sites[n.site].callee]) continue;
          PartNode pn = make_node(PartKind::SiteCopy, b);
          pn.site = n.site;
          site_copy_[r][n.site] = add(part, std::move(pn));
        } else {
          PartNode pn = make_node(PartKind::Copy, b);
          pn.orig = id;
          local_[r][id] = add(part, std::move(pn));
        }
      }
      part.control[b] = local_[r][g_.bodies[b].inputs.back()];
    }
    for (PartNode& n : part.nodes) {
      n.outputs.resize(output_count(g_, n));
      n.input_nodes.assign(input_count(n), kNone);
      n.input_ports.assign(n.input_nodes.size(), 0);
    }
    part.returns.resize(g_.sites.size());
    for (std::uint32_t s = 0; s < g_.sites.size(); ++s) {
      if (p_.site_rank[s] != r) continue;
      for (NodeId ret : g_.sites[s].returns)
        part.returns[s].push_back(local_[r][ret]);
    }
    const Body& main = g_.bodies[g_.main];
    for (std::uint32_t k = 0; k < main.exits.size(); ++k) {
      if (p_.rank_of[main.exits[k]] != r) continue;
      part.main_exits.push_back(local_[r][main.exits[k]]);
      part.main_exit_index.push_back(k);
    }
    for (std::uint32_t k = 0; k + 1 < main.inputs.size(); ++k) {
      if (p_.rank_of[main.inputs[k]] != r) continue;
      part.main_inputs.push_back(local_[r][main.inputs[k]]);
      part.main_input_index.push_back(k);
    }
  }

  std::uint32_t input_count(const PartNode& n) const {
    switch (n.kind) {
      case PartKind::Node:
      case PartKind::Copy:
        return g_.nodes[n.orig].num_inputs();
      case PartKind::Site:
        return static_cast<std::uint32_t>(g_.sites[n.site].calls.size());
      case PartKind::SiteCopy:
        return 2;
      case PartKind::Send:
      case PartKind::Recv:
        return 1;
    }
    return 0;
  }

  void connect(Partition& part, std::uint32_t from, std::uint32_t port, std::uint32_t to,
               std::uint32_t input, TagRule rule, std::uint32_t site) {
    part.nodes[from].outputs[port].push_back(PartDest{to, input, rule, site});
    part.nodes[to].input_nodes[input] = from;
    part.nodes[to].input_ports[input] = port;
  }

  // The channel carrying (producer, port) to partition `to`; made with its Send and Recv on
  // first use. `admission`: the site's admission (producer = the site index).
  std::uint32_t channel(std::uint32_t producer, std::uint32_t port, std::uint32_t to, TagRule rule,
                        std::uint32_t site, bool admission) {
    auto key = std::make_tuple(producer, port, to,
                               rule == TagRule::Same && !admission ? kNone : site, admission);
    auto it = channel_of_.find(key);
    if (it != channel_of_.end()) return it->second;
    Channel c;
    c.to = to;
    c.rule = rule;
    c.site = rule == TagRule::Same && !admission ? kNone : site;
    std::uint32_t from_node, send_body, recv_body;
    if (admission || (producer != kNone && g_.nodes[producer].kind == NodeKind::Call)) {
      // From the Site of `site`: its admission, or its Call's argument `port`.
      c.from = p_.site_rank[site];
      from_node = site_node_[c.from][site];
      send_body = g_.sites[site].caller;
      recv_body = admission ? send_body : g_.sites[site].callee;
      c.producer = admission ? kNoNode : producer;
      c.port = admission ? site_admission_port(g_.sites[site]) : port;
      c.what = admission ? "admission of call site " + std::to_string(g_.sites[site].number)
                         : "Call_" + std::to_string(g_.sites[site].number) + " argument " +
                               std::to_string(port);
    } else {
      c.from = p_.rank_of[producer];
      from_node = local_[c.from][producer];
      send_body = g_.nodes[producer].body;
      recv_body = rule == TagRule::Pop ? g_.sites[site].caller : send_body;
      c.producer = producer;
      c.port = port;
      c.what = dot_label(g_, g_.nodes[producer]) + " of '" + g_.bodies[send_body].name + "'";
      if (rule == TagRule::Pop) c.what += " to Return_" + std::to_string(g_.sites[site].number);
    }
    internal_check(c.from != to, "a channel within one partition");
    std::uint32_t index = static_cast<std::uint32_t>(p_.channels.size());
    Partition& src = p_.parts[c.from];
    Partition& dst = p_.parts[to];
    PartNode send = make_node(PartKind::Send, send_body);
    send.orig = c.producer;
    send.site = site;
    send.channel = index;
    send.input_nodes.assign(1, kNone);
    send.input_ports.assign(1, 0);
    c.send = add(src, std::move(send));
    connect(src, from_node, c.port, c.send, 0, TagRule::Same, 0);
    PartNode recv = make_node(PartKind::Recv, recv_body);
    recv.site = site;
    recv.channel = index;
    recv.input_nodes.assign(1, kNone);
    recv.input_ports.assign(1, 0);
    recv.outputs.resize(1);
    c.recv = add(dst, std::move(recv));
    // The Recv's trigger (Sec. 5.4.7): its body's control Merge; a callee's output is awaited
    // only once the call site has entered the callee.
    if (rule == TagRule::Pop) {
      internal_check(p_.site_rank[site] == to, "a Return away from its call site");
      connect(dst, site_node_[to][site], site_entered_port(g_.sites[site]), c.recv, 0,
              TagRule::Same, 0);
    } else {
      std::uint32_t ctl = dst.control[recv_body];
      internal_check(ctl != kNone, "a Recv in a body whose state machine is missing");
      // An argument of Call_i is awaited only in the frames that call site i made.
      if (rule == TagRule::Push)
        connect(dst, ctl, 0, c.recv, 0, TagRule::Match, site);
      else
        connect(dst, ctl, 0, c.recv, 0, TagRule::Same, 0);
    }
    p_.channels.push_back(std::move(c));
    channel_of_[key] = index;
    return index;
  }

  // Input `input` of node `to` of partition `part` reads graph port `src`; `ret_site` is the
  // call site of a Return reading its callee's output.
  void resolve(Partition& part, std::uint32_t to, std::uint32_t input, Port src,
               std::uint32_t ret_site) {
    const std::uint32_t r = part.rank;
    const Node& u = g_.nodes[src.node];
    if (u.kind == NodeKind::Call) {
      std::uint32_t s = u.site;
      if (p_.site_rank[s] == r) {
        connect(part, site_node_[r][s], u.index, to, input, TagRule::Push, s);
      } else if (u.control) {
        internal_check(site_copy_[r][s] != kNone, "a callee's machine without its caller's");
        connect(part, site_copy_[r][s], 0, to, input, TagRule::Push, s);
      } else {
        std::uint32_t c = channel(src.node, u.index, r, TagRule::Push, s, false);
        connect(part, p_.channels[c].recv, 0, to, input, TagRule::Same, 0);
      }
      return;
    }
    TagRule rule = u.kind == NodeKind::Exit ? TagRule::Pop : TagRule::Same;
    if (local_[r][src.node] != kNone) {
      connect(part, local_[r][src.node], src.index, to, input, rule, ret_site);
      return;
    }
    std::uint32_t c = channel(src.node, src.index, r, rule, ret_site, false);
    connect(part, p_.channels[c].recv, 0, to, input, TagRule::Same, 0);
  }

  void wire(Partition& part) {
    const std::uint32_t r = part.rank;
    // Iterate by index: channels append Sends and Recvs to partitions while we wire.
    const std::size_t made = part.nodes.size();
    for (std::uint32_t i = 0; i < made; ++i) {
      const PartNode n = part.nodes[i];
      switch (n.kind) {
        case PartKind::Node:
        case PartKind::Copy: {
          const Node& o = g_.nodes[n.orig];
          for (std::uint32_t k = 0; k < o.num_inputs(); ++k)
            resolve(part, i, k, o.inputs[k], o.kind == NodeKind::Return ? o.site : kNone);
          break;
        }
        case PartKind::Site: {
          const CallSite& s = g_.sites[n.site];
          for (std::uint32_t k = 0; k < s.calls.size(); ++k)
            resolve(part, i, k, g_.nodes[s.calls[k]].inputs[0], kNone);
          break;
        }
        case PartKind::SiteCopy: {
          const CallSite& s = g_.sites[n.site];
          resolve(part, i, 0, g_.nodes[s.calls.back()].inputs[0], kNone);
          std::uint32_t c = channel(kNone, 0, r, TagRule::Same, n.site, true);
          connect(part, p_.channels[c].recv, 0, i, 1, TagRule::Same, 0);
          break;
        }
        case PartKind::Send:
        case PartKind::Recv:
          break;  // wired when made
      }
    }
  }
};

}  // namespace

Partitioned partition_graph(const Graph& g, const std::vector<std::uint32_t>& rank_of,
                            std::uint32_t ranks) {
  Partitioned p = Partitioner(g, rank_of, ranks).run();
  verify(p);
  return p;
}

void verify(const Partitioned& p) {
  auto fail = [](const std::string& what) { throw InternalError("partition verifier: " + what); };
  const Graph& g = *p.graph;
  for (const Partition& part : p.parts) {
    for (std::uint32_t i = 0; i < part.nodes.size(); ++i) {
      const PartNode& n = part.nodes[i];
      for (std::uint32_t k = 0; k < n.num_inputs(); ++k) {
        std::uint32_t from = n.input_nodes[k];
        if (from >= part.nodes.size())
          fail("partition " + std::to_string(part.rank) + ": input " + std::to_string(k) +
               " of node " + std::to_string(i) + " (" + to_string(n.kind) + ") is not wired");
        bool found = false;
        for (const PartDest& d : part.nodes[from].outputs[n.input_ports[k]])
          found = found || (d.node == i && d.input == k);
        if (!found) fail("an edge is not symmetric in partition " + std::to_string(part.rank));
      }
      if (n.kind == PartKind::Copy && !p.state_machine[n.orig])
        fail("a copy of a node outside the state machine");
    }
    for (std::uint32_t b = 0; b < g.bodies.size(); ++b)
      if (part.needs[b] && part.control[b] >= part.nodes.size())
        fail("a needed body without its control Merge");
  }
  for (std::uint32_t c = 0; c < p.channels.size(); ++c) {
    const Channel& ch = p.channels[c];
    const PartNode& s = p.parts[ch.from].nodes[ch.send];
    const PartNode& r = p.parts[ch.to].nodes[ch.recv];
    if (s.kind != PartKind::Send || r.kind != PartKind::Recv || s.channel != c || r.channel != c)
      fail("channel " + std::to_string(c) + " is not a Send/Recv pair");
  }
}

std::string to_dot(const Partitioned& p) {
  const Graph& g = *p.graph;
  std::ostringstream o;
  o << "digraph adlang_partitions {\n  compound=true;\n"
    << "  node [fontname=\"Helvetica\", fontsize=10];\n"
    << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  auto id = [](std::uint32_t r, std::uint32_t i) {
    return "p" + std::to_string(r) + "_" + std::to_string(i);
  };
  for (const Partition& part : p.parts) {
    o << "  subgraph cluster_p" << part.rank << " {\n    label=\"partition " << part.rank
      << "\";\n    style=rounded;\n";
    for (std::uint32_t b = 0; b < g.bodies.size(); ++b) {
      bool any = false;
      for (const PartNode& n : part.nodes)
        any = any || n.body == b;
      if (!any) continue;
      o << "    subgraph cluster_p" << part.rank << "_b" << b << " {\n      label=\""
        << dot_escape(g.bodies[b].name) << "\";\n";
      for (std::uint32_t i = 0; i < part.nodes.size(); ++i) {
        const PartNode& n = part.nodes[i];
        if (n.body != b) continue;
        o << "      " << id(part.rank, i) << " [";
        switch (n.kind) {
          case PartKind::Node:
            o << "label=\"" << dot_escape(dot_label(g, g.nodes[n.orig]))
              << "\", shape=" << dot_shape(g.nodes[n.orig].kind);
            if (p.state_machine[n.orig]) o << ", style=filled, fillcolor=\"#fff3d6\"";
            break;
          case PartKind::Copy:
            o << "label=\"" << dot_escape(dot_label(g, g.nodes[n.orig]))
              << " (copy)\", shape=" << dot_shape(g.nodes[n.orig].kind)
              << ", style=\"filled,dashed\", fillcolor=\"#fff3d6\"";
            break;
          case PartKind::Site:
            o << "label=\"Call_" << g.sites[n.site].number
              << "\", shape=box, style=filled, fillcolor=\"#e8f0ff\"";
            break;
          case PartKind::SiteCopy:
            o << "label=\"Call_" << g.sites[n.site].number
              << " (ctl copy)\", shape=box, style=\"filled,dashed\", fillcolor=\"#e8f0ff\"";
            break;
          case PartKind::Send:
            o << "label=\"Send #" << n.channel << "\", shape=cds, style=filled, "
              << "fillcolor=\"#e6f5e6\"";
            break;
          case PartKind::Recv:
            o << "label=\"Recv #" << n.channel << "\", shape=cds, style=filled, "
              << "fillcolor=\"#e6f5e6\"";
            break;
        }
        o << "];\n";
      }
      o << "    }\n";
    }
    o << "  }\n";
  }
  for (const Partition& part : p.parts) {
    for (std::uint32_t i = 0; i < part.nodes.size(); ++i) {
      const PartNode& n = part.nodes[i];
      for (std::uint32_t k = 0; k < n.outputs.size(); ++k) {
        for (const PartDest& d : n.outputs[k]) {
          o << "  " << id(part.rank, i) << " -> " << id(part.rank, d.node);
          const PartNode& to = part.nodes[d.node];
          bool trigger = to.kind == PartKind::Recv;
          if (trigger)
            o << " [style=dotted]";
          else if (n.kind == PartKind::Node && g.nodes[n.orig].kind == NodeKind::Switch)
            o << " [label=\"" << (k == 0 ? "T" : "F") << "\"]";
          o << ";\n";
        }
      }
    }
  }
  for (std::uint32_t c = 0; c < p.channels.size(); ++c) {
    const Channel& ch = p.channels[c];
    o << "  " << id(ch.from, ch.send) << " -> " << id(ch.to, ch.recv)
      << " [style=dashed, color=\"#2e7d32\", label=\"" << dot_escape(ch.what) << "\"];\n";
  }
  o << "}\n";
  return o.str();
}

}  // namespace adlang::graph
