#include "semantics/graph/adjoint.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "lang/diagnostics.hpp"
#include "lang/reverse_template.hpp"

namespace adlang::graph {
namespace {

using Ports = std::vector<Port>;

std::uint64_t key_of(Port p) {
  return (static_cast<std::uint64_t>(p.node) << 32) | p.index;
}

// A context of a body: its root, or one side of a conditional (the Switches on predicate
// `pred` lead into it). Every forward node fires exactly when its context's path is taken.
struct Context {
  std::uint32_t parent = 0;
  Port pred;
  std::uint32_t side = 0;  // 0: then, 1: else (the Switch's output)
  std::uint32_t depth = 0;
};

}  // namespace

struct Differentiator::State {
  Graph& g;
  // Per differentiated body: its forward copy, its adjoint, and the copy of each of its nodes.
  struct Made {
    std::uint32_t fwd = 0, adj = 0;
    std::vector<NodeId> copy_of;  // by the original's local index
    // The ports of the original that its adjoint loads, with their slots (and whether the
    // value is a predicate rather than a real): the Saves its forward body gets.
    std::vector<std::tuple<Port, std::uint32_t, bool>> saved;
  };
  std::unordered_map<std::uint32_t, Made> made;
  std::unordered_map<std::uint32_t, std::uint32_t> fwd_site;  // site -> its forward copy
  // slot -> its cotangent's slot, in the differentiation under way: each rd differentiates
  // with slots of its own (an outer rd's Save and Load of a slot meet, at the same tag, the
  // copies of an inner rd's, whose cotangents go elsewhere). A Save and the Load of the same
  // slot are always differentiated by the same rd (one is in the forward body of an rd, the
  // other in its adjoint, and any body calling one calls the other).
  std::unordered_map<std::uint32_t, std::uint32_t> adj_slot;
  std::uint32_t root = UINT32_MAX;  // the body differentiated in place just now

  // Every adjoint keeps its ordering tokens (Differentiator's `nested`).
  const bool nested;

  State(Graph& graph, bool nest) : g(graph), nested(nest) {}

  // ---- nodes ----

  NodeId add_node(NodeKind kind, std::uint32_t body, SourceLoc loc, const Ports& inputs,
                  std::uint32_t noutputs) {
    const std::uint32_t local = static_cast<std::uint32_t>(g.bodies[body].nodes.size());
    NodeId id =
        graph::add_node(g, kind, body, loc, kind == NodeKind::InputMerge ? 0 : local + 1, noutputs);
    for (const Port& p : inputs)
      graph::connect(g, p, id);
    return id;
  }

  std::uint32_t new_slot() {
    internal_check(g.store_slots < UINT32_MAX - 1, "a graph with 2^32 - 2 store slots");
    return g.store_slots++;
  }

  // Whether b, or a body its calls reach, has a Load: then b's adjoint saves cotangents
  // (Load's adjoint is a Save), which must be ordered before its outputs.
  bool saves_cotangents(std::uint32_t b) const {
    std::vector<bool> seen(g.bodies.size(), false);
    std::vector<std::uint32_t> stack{b};
    seen[b] = true;
    while (!stack.empty()) {
      std::uint32_t c = stack.back();
      stack.pop_back();
      for (NodeId id : g.bodies[c].nodes)
        if (g.nodes[id].kind == NodeKind::Load) return true;
      for (std::uint32_t s : g.bodies[c].sites) {
        std::uint32_t callee = g.sites[s].callee;
        if (callee < seen.size() && !seen[callee]) {
          seen[callee] = true;
          stack.push_back(callee);
        }
      }
    }
    return false;
  }

  std::uint32_t cotangent_slot(std::uint32_t s) {
    auto it = adj_slot.find(s);
    if (it != adj_slot.end()) return it->second;
    std::uint32_t t = new_slot();
    adj_slot.emplace(s, t);
    return t;
  }

  std::uint32_t new_body(std::string name, SourceLoc loc, BodyRole role, Type param, Type result,
                         bool with_inputs) {
    std::uint32_t b = static_cast<std::uint32_t>(g.bodies.size());
    g.bodies.push_back(Body{});
    Body& body = g.bodies[b];
    body.name = std::move(name);
    body.loc = loc;
    body.role = role;
    body.uses_store = true;
    body.param_type = param;
    body.result_type = result;
    if (role == BodyRole::Adjoint) body.param_names = component_names("w", param);
    if (with_inputs) {
      std::uint32_t n = static_cast<std::uint32_t>(param.size());
      for (std::uint32_t i = 0; i <= n; ++i) {
        NodeId m = add_node(NodeKind::InputMerge, b, loc, {}, 1);
        g.nodes[m].index = i;
        g.nodes[m].control = i == n;
        g.bodies[b].inputs.push_back(m);
      }
    }
    return b;
  }

  // ---- the bodies to differentiate ----

  // Makes the forward and adjoint shells of b and of everything it calls (once each); the
  // bodies made now are appended to `fresh`. The root being differentiated in place is its own
  // forward body (and is never made: a copy made now would miss the Saves it is about to get).
  void ensure(std::uint32_t b, std::vector<std::uint32_t>& fresh) {
    if (b == root || made.count(b)) return;
    const std::string name = g.bodies[b].name;
    const SourceLoc loc = g.bodies[b].loc;
    const Type param = g.bodies[b].param_type, result = g.bodies[b].result_type;
    Made m;
    m.fwd = new_body(name + "/fwd", loc, BodyRole::Forward, param, result, false);
    m.adj = new_body(name + "/adj", loc, BodyRole::Adjoint, result, param, true);
    g.bodies[m.fwd].param_names = g.bodies[b].param_names;
    made.emplace(b, std::move(m));
    fresh.push_back(b);
    ensure_callees(b, fresh);
  }

  void ensure_callees(std::uint32_t b, std::vector<std::uint32_t>& fresh) {
    std::vector<std::uint32_t> sites = g.bodies[b].sites;
    for (std::uint32_t s : sites) {
      ensure(g.sites[s].callee, fresh);
      std::uint32_t m = g.sites[s].mirror;
      if (m != UINT32_MAX && m != s) ensure(g.sites[m].caller, fresh);
    }
  }

  // The forward body of b: a copy of its nodes whose call sites enter the forward bodies of
  // their callees, with the same tag elements as the original's sites.
  void copy_forward(std::uint32_t b,
                    std::vector<std::pair<std::uint32_t, std::uint32_t>>& mirrors) {
    Made& m = made.at(b);
    const std::uint32_t f = m.fwd;
    const std::vector<NodeId> nodes = g.bodies[b].nodes;
    m.copy_of.assign(nodes.size(), kNoNode);
    for (NodeId id : nodes) {
      Node n = g.nodes[id];
      internal_check(n.kind != NodeKind::Rd, "an Rd node inside a differentiated body");
      NodeId c = static_cast<NodeId>(g.nodes.size());
      n.body = f;
      n.local = static_cast<std::uint32_t>(g.bodies[f].nodes.size());
      n.inputs.clear();
      for (auto& out : n.outputs)
        out.clear();
      g.nodes.push_back(std::move(n));
      g.bodies[f].nodes.push_back(c);
      m.copy_of[g.nodes[id].local] = c;
    }
    for (NodeId id : nodes) {
      const std::vector<Port> ins = g.nodes[id].inputs;
      for (const Port& p : ins) {
        internal_check(g.nodes[p.node].body == b, "a cross-body edge before wiring");
        graph::connect(g, Port{m.copy_of[g.nodes[p.node].local], p.index},
                       m.copy_of[g.nodes[id].local]);
      }
    }
    Body& fb = g.bodies[f];
    const Body& ob = g.bodies[b];
    for (NodeId id : ob.inputs)
      fb.inputs.push_back(m.copy_of[g.nodes[id].local]);
    for (NodeId id : ob.exits)
      fb.exits.push_back(m.copy_of[g.nodes[id].local]);
    const std::vector<std::uint32_t> sites = ob.sites;
    for (std::uint32_t s : sites) {
      CallSite c = g.sites[s];
      std::uint32_t idx = static_cast<std::uint32_t>(g.sites.size());
      c.number = idx + 1;
      c.caller = f;
      c.callee = made.at(c.callee).fwd;
      c.tagged = true;
      for (NodeId& x : c.calls) {
        x = m.copy_of[g.nodes[x].local];
        g.nodes[x].site = idx;
      }
      for (NodeId& x : c.returns) {
        x = m.copy_of[g.nodes[x].local];
        g.nodes[x].site = idx;
      }
      std::uint32_t mirror = c.mirror;
      c.mirror = idx;
      if (mirror != UINT32_MAX && mirror != s) mirrors.emplace_back(idx, mirror);
      g.sites.push_back(std::move(c));
      g.bodies[f].sites.push_back(idx);
      fwd_site[s] = idx;
    }
  }

  // Inserts Save(slot) after each saved port of `target` (the forward body; `copy_of` maps the
  // original's nodes to it, or is empty in place): every consumer reads the Save instead.
  void insert_saves(std::uint32_t target, const std::vector<NodeId>& copy_of,
                    const std::vector<std::tuple<Port, std::uint32_t, bool>>& saved) {
    for (const auto& [orig, slot, discrete] : saved) {
      Port p = orig;
      if (!copy_of.empty()) p.node = copy_of[g.nodes[orig.node].local];
      std::vector<Dest> dests = g.nodes[p.node].outputs[p.index];
      g.nodes[p.node].outputs[p.index].clear();
      NodeId save = add_node(NodeKind::Save, target, g.nodes[p.node].loc, {p}, 1);
      g.nodes[save].index = slot;
      g.nodes[save].control = discrete;
      g.nodes[save].pos = g.nodes[p.node].pos;
      for (const Dest& d : dests) {
        g.nodes[d.node].inputs[d.input] = Port{save, 0};
        g.nodes[save].outputs[0].push_back(d);
      }
    }
  }

  // ---- the adjoint of one body ----

  class Adjoint;
};

// The adjoint body of b (docs/graph-ad.md): b's nodes in reverse topological order, each
// adding its inputs' cotangents from its outputs' cotangents.
class Differentiator::State::Adjoint {
 public:
  Adjoint(State& st, std::uint32_t b, std::uint32_t a,
          std::vector<std::tuple<Port, std::uint32_t, bool>>& saved, bool in_place)
      : st_(st),
        g_(st.g),
        b_(b),
        a_(a),
        saved_(saved),
        in_place_(in_place),
        ordered_(st.nested || st.saves_cotangents(b)) {}

  void build() {
    order();
    classify();
    const Body& body = g_.bodies[b_];
    const std::uint32_t nu = static_cast<std::uint32_t>(body.result_type.size());
    std::vector<bool> site_done(g_.sites.size(), false);
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      NodeId id = g_.bodies[b_].nodes[*it];
      const Node n = g_.nodes[id];
      switch (n.kind) {
        case NodeKind::InputMerge:
        case NodeKind::Return:
          break;
        case NodeKind::Const:
        case NodeKind::BoolConst:
          if (ordered_) contribute(n.inputs[0], after(n.inputs[0], cot({id, 0})));
          break;
        case NodeKind::Add: {
          Port u = cot({id, 0});
          contribute(n.inputs[0], u);
          contribute(n.inputs[1], u);
          break;
        }
        case NodeKind::Op:
          adjoint_op(id);
          break;
        case NodeKind::Pred: {
          if (!ordered_) break;
          Port u = cot({id, 0});
          contribute(n.inputs[0], after(n.inputs[0], u));
          contribute(n.inputs[1], after(n.inputs[1], u));
          break;
        }
        case NodeKind::Switch: {
          if (!ordered_ && !is_real({id, 0})) break;
          Port t = cot({id, 0});
          Port e = cot({id, 1});
          Port m = merge(t, e, load(n.inputs[1]), n.loc);
          contribute(n.inputs[0], m);
          contribute(n.inputs[1], after(n.inputs[1], m));
          break;
        }
        case NodeKind::Merge: {
          if (!ordered_ && !is_real({id, 0})) break;
          Port u = cot({id, 0});
          NodeId s = make(NodeKind::Switch, n.loc, {u, load(n.inputs[2])}, 2);
          // A Merge of tokens (a unit-valued if) may merge a real effect with a token.
          bool real = is_real({id, 0});
          contribute(n.inputs[0], real ? Port{s, 0} : after(n.inputs[0], Port{s, 0}));
          contribute(n.inputs[1], real ? Port{s, 1} : after(n.inputs[1], Port{s, 1}));
          contribute(n.inputs[2], after(n.inputs[2], u));
          break;
        }
        case NodeKind::Gate: {
          if (!ordered_ && !is_real({id, 0})) break;
          Port u = cot({id, 0});
          contribute(n.inputs[0], u);
          contribute(n.inputs[1], after(n.inputs[1], u));
          break;
        }
        case NodeKind::Sync: {
          if (!ordered_) break;
          Port u = cot({id, 0});
          for (const Port& p : n.inputs)
            contribute(p, after(p, u));
          break;
        }
        case NodeKind::Exit: {
          const Body& a = g_.bodies[a_];
          // A body of unit result returns a token (its effects, possibly a real value that
          // only strictness consumes): its cotangent is the adjoint's control token.
          if (nu > 0) {
            contribute(n.inputs[0], Port{a.inputs[n.index], 0});
          } else {
            contribute(n.inputs[0], after(n.inputs[0], Port{a.inputs.back(), 0}));
          }
          break;
        }
        case NodeKind::Call:
          if (!site_done[n.site]) {
            site_done[n.site] = true;
            adjoint_site(n.site);
          }
          break;
        case NodeKind::Save: {
          Port u = cot({id, 0});
          contribute(n.inputs[0], u);
          if (!n.control) {
            NodeId l = make(NodeKind::Load, n.loc, {u}, 1);
            g_.nodes[l].index = st_.cotangent_slot(n.index);
            contribute(n.inputs[0], Port{l, 0});
          }
          break;
        }
        case NodeKind::Load: {
          Port u = cot({id, 0});
          if (n.control) {
            contribute(n.inputs[0], after(n.inputs[0], u));
          } else {
            NodeId s = make(NodeKind::Save, n.loc, {u}, 1);
            g_.nodes[s].index = st_.cotangent_slot(n.index);
            contribute(n.inputs[0], after(n.inputs[0], Port{s, 0}));
          }
          break;
        }
        case NodeKind::Rd:
          throw InternalError("internal error: an Rd node inside a differentiated body");
      }
    }
    // The adjoint's outputs: the cotangents of b's parameters, held until every adjoint node
    // has fired (the cotangent of b's control input is the token that says so).
    const std::uint32_t nt = static_cast<std::uint32_t>(body.param_type.size());
    Port done = cot({body.inputs.back(), 0});
    Ports out;
    if (nt == 0) {
      out.push_back(done);
    } else if (!ordered_) {
      for (std::uint32_t j = 0; j < nt; ++j)
        out.push_back(cot({body.inputs[j], 0}));
    } else {
      for (std::uint32_t j = 0; j < nt; ++j)
        out.push_back(Port{make(NodeKind::Gate, body.loc, {cot({body.inputs[j], 0}), done}, 1), 0});
    }
    for (std::uint32_t k = 0; k < out.size(); ++k) {
      NodeId e = make(NodeKind::Exit, body.loc, {out[k]}, 1);
      g_.nodes[e].index = k;
      g_.bodies[a_].exits.push_back(e);
    }
  }

 private:
  State& st_;
  Graph& g_;
  const std::uint32_t b_, a_;
  std::vector<std::tuple<Port, std::uint32_t, bool>>& saved_;
  const bool in_place_;
  // Whether the adjoint's effects must be ordered (docs/graph-ad.md, "Ordering tokens"): its
  // Saves of cotangent slots (the adjoints of Loads, in b or in a body it calls) must precede
  // its outputs, and when an outer rd differentiates it again, so must the Saves its forward
  // copy will get. Otherwise its only effects are Loads, whose values the forward activation
  // saved before the adjoint began, and the adjoint keeps no ordering tokens: no Gates on
  // "done", no Syncs of tokens, no zeros that only order.
  const bool ordered_;
  std::vector<std::uint32_t> order_;             // b's local indices, topologically
  std::vector<std::vector<std::uint32_t>> ctx_;  // per local node and output: its context
  std::vector<std::uint32_t> node_ctx_;          // per local node: the deepest of its inputs'
  std::vector<std::vector<std::uint8_t>> real_;  // per local node and output
  std::vector<Context> contexts_{Context{}};
  std::map<std::tuple<std::uint32_t, std::uint64_t, std::uint32_t>, std::uint32_t> ctx_ids_;
  std::unordered_map<std::uint64_t, Ports> contributions_;
  std::unordered_map<std::uint64_t, Port> cot_;
  std::unordered_map<std::uint64_t, Port> loads_;
  std::vector<std::optional<Port>> actl_{std::nullopt};

  std::uint32_t local(NodeId id) const { return g_.nodes[id].local; }

  NodeId make(NodeKind kind, SourceLoc loc, const Ports& inputs, std::uint32_t nout) {
    return st_.add_node(kind, a_, loc, inputs, nout);
  }

  // b's nodes in its left-to-right call-by-value order (Node::pos, the order in which the
  // sequential evaluators run them and the tape records them; ties by creation), which is a
  // topological order with every Call of a site before its Returns. The adjoints run in the
  // reverse order, so a fan-out's contributions are added in the order the tape adds them.
  void order() {
    const Body& body = g_.bodies[b_];
    const std::size_t n = body.nodes.size();
    order_.resize(n);
    for (std::uint32_t l = 0; l < n; ++l)
      order_[l] = l;
    auto key = [&](std::uint32_t l) {
      const Node& x = g_.nodes[body.nodes[l]];
      return std::make_pair(x.kind == NodeKind::InputMerge ? 0u : x.pos, l);
    };
    std::sort(order_.begin(), order_.end(),
              [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
    std::vector<std::uint32_t> place(n);
    for (std::uint32_t k = 0; k < n; ++k)
      place[order_[k]] = k;
    for (std::uint32_t l = 0; l < n; ++l)
      for (const Port& p : g_.nodes[body.nodes[l]].inputs)
        internal_check(place[local(p.node)] < place[l], "a graph body out of evaluation order");
    for (std::uint32_t s : body.sites)
      for (NodeId c : g_.sites[s].calls)
        for (NodeId r : g_.sites[s].returns)
          internal_check(place[local(c)] < place[local(r)], "a call site out of order");
  }

  std::uint32_t deepest(std::uint32_t a, std::uint32_t b) const {
    return contexts_[b].depth > contexts_[a].depth ? b : a;
  }

  std::uint32_t child_context(std::uint32_t parent, Port pred, std::uint32_t side) {
    auto k = std::make_tuple(parent, key_of(pred), side);
    auto it = ctx_ids_.find(k);
    if (it != ctx_ids_.end()) return it->second;
    std::uint32_t id = static_cast<std::uint32_t>(contexts_.size());
    contexts_.push_back(Context{parent, pred, side, contexts_[parent].depth + 1});
    actl_.push_back(std::nullopt);
    ctx_ids_.emplace(k, id);
    return id;
  }

  std::uint32_t ctx_of(Port p) const { return ctx_[local(p.node)][p.index]; }
  bool is_real(Port p) const { return real_[local(p.node)][p.index] != 0; }

  // Contexts and kinds (real or token) of b's ports, in topological order.
  void classify() {
    const Body& body = g_.bodies[b_];
    const std::size_t n = body.nodes.size();
    ctx_.assign(n, {});
    real_.assign(n, {});
    node_ctx_.assign(n, 0);
    for (std::uint32_t l : order_) {
      NodeId id = body.nodes[l];
      const Node& node = g_.nodes[id];
      std::uint32_t c = 0;
      for (const Port& p : node.inputs)
        c = deepest(c, ctx_of(p));
      if (node.kind == NodeKind::Return) {
        const CallSite& s = g_.sites[node.site];
        c = node_ctx_[local(s.calls.back())];
      }
      node_ctx_[l] = c;
      std::uint32_t nout = node.num_outputs();
      ctx_[l].assign(nout, c);
      real_[l].assign(nout, 1);
      switch (node.kind) {
        case NodeKind::InputMerge:
          real_[l][0] = !node.control;
          break;
        case NodeKind::BoolConst:
        case NodeKind::Pred:
        case NodeKind::Sync:
          real_[l][0] = 0;
          break;
        case NodeKind::Switch:
          ctx_[l][0] = child_context(c, node.inputs[1], 0);
          ctx_[l][1] = child_context(c, node.inputs[1], 1);
          real_[l][0] = real_[l][1] = is_real(node.inputs[0]);
          break;
        case NodeKind::Merge:
          ctx_[l][0] = ctx_of(node.inputs[2]);
          real_[l][0] = is_real(node.inputs[0]);
          break;
        case NodeKind::Gate:
          real_[l][0] = is_real(node.inputs[0]);
          break;
        case NodeKind::Return:
          real_[l][0] = g_.bodies[g_.sites[node.site].callee].result_type.size() > 0;
          break;
        case NodeKind::Save:
        case NodeKind::Load:
          real_[l][0] = !node.control;
          break;
        default:
          break;
      }
    }
  }

  // Unordered, a token port receives nothing (its cotangent is its context's token) and
  // neither does a real port from a contribution that only orders (`after`: none).
  void contribute(Port p, Port c) {
    if (!ordered_ && (c.node == kNoNode || !is_real(p))) return;
    contributions_[key_of(p)].push_back(c);
  }

  // The cotangent of port p of b: the sum of its consumers' contributions (a token joining
  // them for a token), or zero.
  Port cot(Port p) {
    auto it = cot_.find(key_of(p));
    if (it != cot_.end()) return it->second;
    const Ports& cs = contributions_[key_of(p)];
    SourceLoc loc = g_.nodes[p.node].loc;
    Port r;
    if (!ordered_ && !is_real(p)) {
      r = actl(ctx_of(p));
    } else if (cs.empty()) {
      r = is_real(p) ? constant(0, actl(ctx_of(p)), loc) : actl(ctx_of(p));
    } else if (cs.size() == 1) {
      r = cs[0];
    } else if (is_real(p)) {
      r = cs[0];
      for (std::size_t i = 1; i < cs.size(); ++i)
        r = Port{make(NodeKind::Add, loc, {r, cs[i]}, 1), 0};
    } else {
      r = join(cs, loc);
    }
    cot_.emplace(key_of(p), r);
    return r;
  }

  // A Sync of the tokens, as a tree of Syncs of at most kJoinWidth inputs (a control token used
  // by many nodes, a Const per operand of a large sum, has as many contributions).
  static constexpr std::size_t kJoinWidth = 1024;
  Port join(Ports tokens, SourceLoc loc) {
    while (tokens.size() > 1) {
      Ports next;
      for (std::size_t i = 0; i < tokens.size(); i += kJoinWidth) {
        std::size_t end = std::min(tokens.size(), i + kJoinWidth);
        if (end - i == 1) {
          next.push_back(tokens[i]);
          continue;
        }
        Ports part(tokens.begin() + static_cast<std::ptrdiff_t>(i),
                   tokens.begin() + static_cast<std::ptrdiff_t>(end));
        next.push_back(Port{make(NodeKind::Sync, loc, part, 1), 0});
      }
      tokens = std::move(next);
    }
    return tokens[0];
  }

  Port constant(double v, Port ctl, SourceLoc loc) {
    NodeId c = make(NodeKind::Const, loc, {ctl}, 1);
    g_.nodes[c].value = v;
    return Port{c, 0};
  }

  // A contribution that only orders: zero for a real port, the token itself for a token. (A
  // port used as a token can be real: a value consumed only for strictness, or a cotangent
  // that orders a Load; its cotangent from that use is zero.)
  // Unordered (see `ordered_`), nothing: a zero adds nothing to a sum.
  Port after(Port p, Port token) {
    if (!ordered_) return Port{};
    return is_real(p) ? constant(0, token, g_.nodes[p.node].loc) : token;
  }

  Port merge(Port t, Port e, Port pred, SourceLoc loc) {
    return Port{make(NodeKind::Merge, loc, {t, e, pred}, 1), 0};
  }

  // The token of the adjoint's context mirroring forward context c: live exactly when c's
  // path was taken in the forward activation (a Switch on each saved predicate on the way).
  Port actl(std::uint32_t c) {
    if (actl_[c]) return *actl_[c];
    Port r;
    if (c == 0) {
      r = Port{g_.bodies[a_].inputs.back(), 0};
    } else {
      const Context x = contexts_[c];
      Port parent = actl(x.parent);
      NodeId s = make(NodeKind::Switch, g_.nodes[x.pred.node].loc, {parent, load(x.pred)}, 2);
      r = Port{s, x.side};
    }
    actl_[c] = r;
    return r;
  }

  // The forward value of port p, saved by the forward body and taken here (once).
  Port load(Port p) {
    auto it = loads_.find(key_of(p));
    if (it != loads_.end()) return it->second;
    bool discrete = !is_real(p);
    std::uint32_t slot = st_.new_slot();
    saved_.emplace_back(p, slot, discrete);
    NodeId l = make(NodeKind::Load, g_.nodes[p.node].loc, {actl(ctx_of(p))}, 1);
    g_.nodes[l].index = slot;
    g_.nodes[l].control = discrete;
    Port r{l, 0};
    loads_.emplace(key_of(p), r);
    return r;
  }

  // op_r(<x, w>) (lang/reverse_template.hpp), x the saved arguments, w the cotangents.
  void adjoint_op(NodeId id) {
    const Node n = g_.nodes[id];
    const Op op = *n.op;
    // A result no adjoint reads has no cotangent, and its template is not applied: the linear
    // R skips a let whose adjoint is zero ("nothing to send"), so an undefinedness of the
    // template there (1 / y unused, at y = 1e-200: y * y underflows) is not the derivative's.
    bool read = false;
    for (std::uint32_t k = 0; k < n.num_outputs(); ++k) {
      auto it = contributions_.find(key_of({id, k}));
      read = read || (it != contributions_.end() && !it->second.empty());
    }
    if (!read) return;
    Ports w;
    for (std::uint32_t k = 0; k < n.num_outputs(); ++k)
      w.push_back(cot({id, k}));
    Ports x;
    if (reverse_reads_argument(op.kind()))
      for (const Port& p : n.inputs)
        x.push_back(load(p));
    const ReverseTemplate& t = reverse_rule(op.kind());
    Ports r = instantiate(t, t.root, op, x, w, n.loc);
    internal_check(r.size() == n.inputs.size(), "a reverse template of the wrong width");
    for (std::size_t j = 0; j < r.size(); ++j)
      contribute(n.inputs[j], r[j]);
  }

  Ports instantiate(const ReverseTemplate& t, int i, Op op, const Ports& x, const Ports& w,
                    SourceLoc loc) {
    const ReverseNode& rn = t.node(i);
    switch (rn.kind) {
      case ReverseNode::Kind::Cotangent:
        return w;
      case ReverseNode::Kind::Argument:
        return x;
      case ReverseNode::Kind::First:
      case ReverseNode::Kind::Second: {
        std::size_t n1 = op.arg_type().first().size();
        return rn.kind == ReverseNode::Kind::First
                   ? Ports(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n1))
                   : Ports(x.begin() + static_cast<std::ptrdiff_t>(n1), x.end());
      }
      case ReverseNode::Kind::Literal:
        return {constant(rn.literal, w[0], loc)};
      case ReverseNode::Kind::Pair: {
        Ports a = instantiate(t, rn.parts[0], op, x, w, loc);
        Ports b = instantiate(t, rn.parts[1], op, x, w, loc);
        a.insert(a.end(), b.begin(), b.end());
        return a;
      }
      case ReverseNode::Kind::Apply: {
        Ports in;
        for (int k = 0; k < rn.nparts; ++k) {
          Ports a = instantiate(t, rn.parts[k], op, x, w, loc);
          in.insert(in.end(), a.begin(), a.end());
        }
        Op applied = Op::make(rn.op, op.vector_size());
        NodeId o = make(NodeKind::Op, loc, in, static_cast<std::uint32_t>(applied.result_size()));
        g_.nodes[o].op = applied;
        Ports out;
        for (std::uint32_t k = 0; k < applied.result_size(); ++k)
          out.push_back(Port{o, k});
        return out;
      }
    }
    throw InternalError("internal error: unknown reverse template node");
  }

  // The adjoint of call site s (Call_i ... Return_i): a call site into the callee's adjoint
  // with the same tag element (its mirror is s's forward site), taking the cotangents of the
  // Returns and giving those of the Calls' inputs.
  void adjoint_site(std::uint32_t s) {
    const CallSite site = g_.sites[s];
    const Body& callee = g_.bodies[site.callee];
    const std::uint32_t nu = static_cast<std::uint32_t>(callee.result_type.size());
    const std::uint32_t nt = static_cast<std::uint32_t>(callee.param_type.size());
    Ports args;
    Port control;
    if (nu > 0) {
      for (NodeId r : site.returns)
        args.push_back(cot({r, 0}));
      control = actl(node_ctx_[local(site.calls.back())]);
    } else {
      control = cot({site.returns[0], 0});
    }
    args.push_back(control);
    std::uint32_t idx = static_cast<std::uint32_t>(g_.sites.size());
    CallSite c;
    c.number = idx + 1;
    c.caller = a_;
    c.callee = st_.made.at(site.callee).adj;
    c.local = static_cast<std::uint32_t>(g_.bodies[a_].sites.size());
    c.loc = site.loc;
    c.tagged = true;
    c.charges_fuel = false;
    // The tag element of the forward site (mirrors always name a site that is its own).
    std::uint32_t f = in_place_ ? s : st_.fwd_site.at(s);
    if (g_.sites[f].mirror != UINT32_MAX) f = g_.sites[f].mirror;
    c.mirror = f;
    for (std::uint32_t j = 0; j < args.size(); ++j) {
      NodeId call = make(NodeKind::Call, site.loc, {args[j]}, 1);
      g_.nodes[call].site = idx;
      g_.nodes[call].index = j;
      g_.nodes[call].control = j + 1 == args.size();
      c.calls.push_back(call);
    }
    std::uint32_t nret = Graph::output_count(callee.param_type);
    for (std::uint32_t k = 0; k < nret; ++k) {
      NodeId ret = make(NodeKind::Return, site.loc, {}, 1);
      g_.nodes[ret].site = idx;
      g_.nodes[ret].index = k;
      c.returns.push_back(ret);
    }
    c.pos = g_.nodes[c.returns.back()].pos;
    g_.bodies[a_].sites.push_back(idx);
    g_.sites.push_back(c);
    for (std::uint32_t j = 0; j < nt; ++j)
      contribute(g_.nodes[site.calls[j]].inputs[0], Port{c.returns[j], 0});
    Port control_input = g_.nodes[site.calls.back()].inputs[0];
    contribute(control_input, after(control_input, Port{c.returns[0], 0}));
  }
};

Differentiator::Differentiator(Graph& g, bool nested) : s_(std::make_unique<State>(g, nested)) {}
Differentiator::~Differentiator() = default;

std::uint32_t Differentiator::differentiate_root(std::uint32_t root) {
  State& st = *s_;
  Graph& g = st.g;
  st.adj_slot.clear();
  st.root = root;
  std::vector<std::uint32_t> fresh;
  st.ensure_callees(root, fresh);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> mirrors;
  for (std::uint32_t b : fresh)
    st.copy_forward(b, mirrors);
  for (const auto& [site, mirror] : mirrors)
    g.sites[site].mirror = g.sites[mirror].caller == root ? mirror : st.fwd_site.at(mirror);
  for (std::uint32_t b : fresh) {
    State::Made& m = st.made.at(b);
    State::Adjoint(st, b, m.adj, m.saved, false).build();
  }
  // The root's adjoint, from the root as it is, before it becomes its own forward body.
  std::uint32_t adj =
      st.new_body(g.bodies[root].name + "/adj", g.bodies[root].loc, BodyRole::Adjoint,
                  g.bodies[root].result_type, g.bodies[root].param_type, true);
  std::vector<std::tuple<Port, std::uint32_t, bool>> saved;
  State::Adjoint(st, root, adj, saved, true).build();
  for (std::uint32_t b : fresh) {
    const State::Made& m = st.made.at(b);
    st.insert_saves(m.fwd, m.copy_of, m.saved);
  }
  for (std::uint32_t s : g.bodies[root].sites) {
    CallSite& c = g.sites[s];
    c.callee = st.made.at(c.callee).fwd;
    c.tagged = true;
    if (c.mirror == UINT32_MAX) c.mirror = s;
  }
  st.insert_saves(root, {}, saved);
  g.bodies[root].role = BodyRole::Forward;
  g.bodies[root].uses_store = true;
  return adj;
}

}  // namespace adlang::graph
