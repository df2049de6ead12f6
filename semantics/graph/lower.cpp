#include "semantics/graph/lower.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "lang/diagnostics.hpp"
#include "lang/free_vars.hpp"
#include "lang/verifier.hpp"
#include "semantics/graph/adjoint.hpp"
#include "semantics/graph/inline_rd.hpp"
#include "semantics/ordinary_eval.hpp"

namespace adlang::graph {
namespace {

using Ports = std::vector<Port>;

// The Switches of one conditional, shared by its two branches: per routed value (a variable
// binding or a context's control token), one Switch per scalar.
struct IfSwitches {
  Port pred;
  std::unordered_map<std::uint64_t, std::vector<NodeId>> routed;
};

// A context of one body: its root, or one branch of a conditional (Sec. 3.2: every value that
// enters a branch passes a Switch on the branch's predicate).
struct Scope {
  Scope* parent = nullptr;  // the enclosing context of the same body
  std::uint32_t body = 0;
  IfSwitches* sw = nullptr;  // for branches
  bool then_side = true;
  Port ctl;  // the control token of this context (valid once made)
  bool has_ctl = false;
  std::unordered_map<std::uint64_t, Ports> routed;  // values switched into this branch
  // Value ports made here (candidates for effects). A body's inputs are not: a body is entered
  // only when every argument is live (a call is strict, and dead Calls go to the Returns), so
  // an input is never undefined or dead in it, and a Gate on one would pass every token.
  Ports origins;
};

struct Binding {
  Name name;
  Type type;
  Ports ports;
  Scope* scope;
  std::uint64_t id;
};

// The variables in scope, innermost last, with an index by name: a let chain binds thousands
// of variables and reads them late (a gradient's inputs), so finding one by scanning the
// bindings would make lowering quadratic in the chain's length.
class Env {
 public:
  Env() = default;
  explicit Env(Binding b) { push_back(std::move(b)); }
  void push_back(Binding b) {
    index_[b.name].push_back(static_cast<std::uint32_t>(bindings_.size()));
    bindings_.push_back(std::move(b));
  }
  void pop_back() {
    auto it = index_.find(bindings_.back().name);
    it->second.pop_back();
    if (it->second.empty()) index_.erase(it);
    bindings_.pop_back();
  }
  // The innermost binding of x, or null.
  const Binding* find(const Name& x) const {
    auto it = index_.find(x);
    return it == index_.end() ? nullptr : &bindings_[it->second.back()];
  }

 private:
  std::vector<Binding> bindings_;
  std::unordered_map<Name, std::vector<std::uint32_t>, NameHash> index_;
};

struct FunBinding {
  Name name;
  std::uint32_t body;
};

constexpr std::uint64_t kControlKey = UINT64_MAX;

class Lowering {
 public:
  Graph g;
  RdLowering rd_lowering = RdLowering::Adjoint;

  void lower_program(const Term& program, const std::vector<std::pair<Name, Type>>& inputs) {
    g.program_inputs = inputs;
    g.result_type = program.type();
    std::size_t n = 0;
    for (const auto& in : inputs)
      n += in.second.size();
    g.main = new_body("main", program.loc(), Type::real_power(n), program.type(),
                      static_cast<std::uint32_t>(n));
    for (const auto& [x, t] : inputs)
      add_param_names(g.main, x.str(), t);
    Scope root;
    root.body = g.main;
    root.ctl = Port{g.bodies[g.main].inputs.back(), 0};
    root.has_ctl = true;
    Env env;
    std::uint32_t k = 0;
    for (const auto& in : inputs) {
      Ports ports;
      for (std::size_t i = 0; i < in.second.size(); ++i)
        ports.push_back(Port{g.bodies[g.main].inputs[k++], 0});
      env.push_back(Binding{in.first, in.second, ports, &root, next_binding_++});
    }
    std::vector<FunBinding> funs;
    std::vector<const LetRec*> groups;
    Ports result = lower(program, root, env, funs, groups);
    close_body(g.main, root, result);
    differentiate_rds();
    if (!needs_host.empty()) return;  // lowered again (lower_to_graph)
    wire_calls();
    wire_returns();
  }

 private:
  std::uint64_t next_binding_ = 0;
  // An rd lowered to reverse mode: the body of N and the two call sites of its host, into the
  // forward body (N itself) and into the adjoint body (made at the end, when every body that
  // N calls is complete).
  struct RdRequest {
    const Rd* rd;
    std::uint32_t body, forward_site, adjoint_site;
  };
  std::vector<RdRequest> rd_requests_;

 public:
  // The rds to lower to Rd nodes in any case (see lower_to_graph), and those found to need it.
  std::set<const Rd*> host_rds;
  std::set<const Rd*> needs_host;

 private:
  std::vector<std::uint32_t> counter_;               // per body: the evaluation-order counter
  std::vector<std::vector<std::uint8_t>> consumed_;  // per node and port: strictly consumed

  std::uint32_t new_body(std::string name, SourceLoc loc, Type param, Type result,
                         std::uint32_t nparams) {
    std::uint32_t b = static_cast<std::uint32_t>(g.bodies.size());
    g.bodies.push_back(Body{});
    g.bodies[b].name = std::move(name);
    g.bodies[b].loc = loc;
    g.bodies[b].param_type = param;
    g.bodies[b].result_type = result;
    counter_.push_back(0);
    for (std::uint32_t i = 0; i <= nparams; ++i) {
      NodeId m = add_node(NodeKind::InputMerge, b, loc, {}, 1);
      g.nodes[m].index = i;
      g.nodes[m].control = i == nparams;
      g.nodes[m].pos = 0;
      g.bodies[b].inputs.push_back(m);
    }
    return b;
  }

  void add_param_names(std::uint32_t b, const std::string& name, Type t) {
    std::vector<std::string> names = component_names(name, t);
    std::vector<std::string>& to = g.bodies[b].param_names;
    to.insert(to.end(), names.begin(), names.end());
  }

  NodeId add_node(NodeKind kind, std::uint32_t body, SourceLoc loc, const Ports& inputs,
                  std::uint32_t noutputs) {
    NodeId id = graph::add_node(g, kind, body, loc, ++counter_[body], noutputs);
    consumed_.emplace_back(noutputs, 0);
    for (const Port& p : inputs)
      connect(p, id);
    return id;
  }

  // Adds p as the next input of node `to`, and records that p is consumed.
  void connect(Port p, NodeId to) {
    graph::connect(g, p, to);
    const Node& n = g.nodes[to];
    // (Nodes made by the Differentiator, wired at the end, are past the effects' bookkeeping.)
    if (n.kind != NodeKind::Switch && p.node < consumed_.size()) consumed_[p.node][p.index] = 1;
  }

  // A node with value outputs made in scope `sc`: its ports are candidates for effects.
  Ports value_node(NodeKind kind, Scope& sc, SourceLoc loc, const Ports& inputs,
                   std::uint32_t noutputs, NodeId* made = nullptr) {
    NodeId id = add_node(kind, sc.body, loc, inputs, noutputs);
    if (made) *made = id;
    Ports out;
    for (std::uint32_t i = 0; i < noutputs; ++i) {
      out.push_back(Port{id, i});
      sc.origins.push_back(Port{id, i});
    }
    return out;
  }

  // The ports of `ports` (made in scope `from`) as seen in scope `sc`, through the Switches
  // of every conditional in between (created once per conditional and value).
  Ports route(const Ports& ports, Scope* from, Scope& sc, std::uint64_t key) {
    if (&sc == from) return ports;
    auto it = sc.routed.find(key);
    if (it != sc.routed.end()) return it->second;
    internal_check(sc.parent != nullptr, "a value is not visible in its context");
    Ports outer = route(ports, from, *sc.parent, key);
    std::vector<NodeId>& sws = sc.sw->routed[key];
    if (sws.empty()) {
      for (const Port& p : outer) {
        NodeId s = add_node(NodeKind::Switch, sc.body, g.nodes[p.node].loc, {p, sc.sw->pred}, 2);
        sws.push_back(s);
      }
    }
    Ports inner;
    for (NodeId s : sws)
      inner.push_back(Port{s, sc.then_side ? 0u : 1u});
    sc.routed[key] = inner;
    return inner;
  }

  Port control(Scope& sc) {
    if (sc.has_ctl) return sc.ctl;
    Scope* root = &sc;
    while (!root->has_ctl)
      root = root->parent;
    // Route the nearest known control token down through the branches.
    Ports p = route({root->ctl}, root, sc, kControlKey);
    sc.ctl = p[0];
    sc.has_ctl = true;
    return sc.ctl;
  }

  // The context's effects: value ports made in it that no strict node consumes (and that are
  // not its result), joined into one control port; nullopt when there are none.
  std::optional<Port> effects(Scope& sc, const Ports& result, SourceLoc loc) {
    // The result's ports, sorted (a gradient's result has one per input: a scan of it per
    // origin made lowering quadratic).
    auto key = [](const Port& p) { return (std::uint64_t{p.node} << 32) | p.index; };
    std::vector<std::uint64_t> in_result;
    in_result.reserve(result.size());
    for (const Port& r : result)
      in_result.push_back(key(r));
    std::sort(in_result.begin(), in_result.end());
    Ports eff;
    for (const Port& p : sc.origins)
      if (!consumed_[p.node][p.index] &&
          !std::binary_search(in_result.begin(), in_result.end(), key(p)))
        eff.push_back(p);
    if (eff.empty()) return std::nullopt;
    if (eff.size() == 1) {
      consumed_[eff[0].node][eff[0].index] = 1;
      return eff[0];
    }
    NodeId s = add_node(NodeKind::Sync, sc.body, loc, eff, 1);
    return Port{s, 0};
  }

  // The outputs of a closing context: the result held by its effects (Gates), or, for a
  // zero-width result, one control token that is defined when the context is.
  Ports close(Scope& sc, const Ports& result, SourceLoc loc) {
    std::optional<Port> eff = effects(sc, result, loc);
    Ports out;
    if (result.empty()) {
      out.push_back(eff ? *eff : control(sc));
      return out;
    }
    if (!eff) return result;
    for (const Port& r : result) {
      NodeId gate = add_node(NodeKind::Gate, sc.body, loc, {r, *eff}, 1);
      out.push_back(Port{gate, 0});
    }
    return out;
  }

  void close_body(std::uint32_t b, Scope& root, const Ports& result) {
    Ports out = close(root, result, g.bodies[b].loc);
    for (std::uint32_t k = 0; k < out.size(); ++k) {
      NodeId e = add_node(NodeKind::Exit, b, g.bodies[b].loc, {out[k]}, 1);
      g.nodes[e].index = k;
      g.bodies[b].exits.push_back(e);
    }
  }

  // An outer rd differentiates the bodies an inner one made (nested derivatives).
  //
  // A graph has finitely many bodies, so an rd whose body's calls reach that rd again (the
  // recursion passes through the derivative: the number of nested derivatives depends on the
  // run, examples/own_derivative.ad) cannot be differentiated statically; neither can one
  // whose calls reach such an rd. Those are recorded in needs_host, and lower_to_graph lowers
  // the program again with them as Rd nodes.
  void differentiate_rds() {
    if (rd_requests_.empty()) return;
    const std::size_t n = rd_requests_.size();
    std::vector<std::vector<bool>> reach(n);
    for (std::size_t i = 0; i < n; ++i) {
      const RdRequest& r = rd_requests_[i];
      std::vector<std::uint32_t> stack{r.body};
      std::vector<bool>& seen = reach[i];
      seen.assign(g.bodies.size(), false);
      seen[r.body] = true;
      bool cyclic = false;
      while (!stack.empty() && !cyclic) {
        std::uint32_t b = stack.back();
        stack.pop_back();
        for (NodeId id : g.bodies[b].nodes)
          cyclic = cyclic || g.nodes[id].kind == NodeKind::Rd;
        for (std::uint32_t s : g.bodies[b].sites) {
          std::uint32_t c = g.sites[s].callee;
          cyclic = cyclic || c == r.body;
          if (!seen[c]) {
            seen[c] = true;
            stack.push_back(c);
          }
        }
      }
      if (cyclic) needs_host.insert(r.rd);
    }
    if (!needs_host.empty()) return;
    // An rd whose host body its body's calls reach (an rd inside a function it calls, or
    // nested in it) is differentiated first: its sites must enter its bodies by then. Without
    // cycles (above) this order exists; lowering order alone is not it (a def may call a later
    // def of its group).
    std::vector<bool> done(n, false);
    bool nested = false;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        nested = nested || (i != j && reach[i][g.sites[rd_requests_[j].forward_site].caller]);
    Differentiator d(g, nested);
    for (std::size_t round = 0; round < n; ++round) {
      std::size_t next = n;
      for (std::size_t i = 0; i < n && next == n; ++i) {
        if (done[i]) continue;
        bool ready = true;
        for (std::size_t j = 0; j < n && ready; ++j)
          ready = done[j] || j == i || !reach[i][g.sites[rd_requests_[j].forward_site].caller];
        if (ready) next = i;
      }
      internal_check(next != n, "the rds of a graph depend on each other in a cycle");
      done[next] = true;
      const RdRequest& r = rd_requests_[next];
      std::uint32_t adj = d.differentiate_root(r.body);
      CallSite& f = g.sites[r.forward_site];
      CallSite& a = g.sites[r.adjoint_site];
      a.callee = adj;
      f.tagged = a.tagged = true;
      f.mirror = r.forward_site;
      a.mirror = r.forward_site;
      f.charges_fuel = a.charges_fuel = false;
      g.bodies[f.caller].uses_store = true;
    }
    // Inlined where the bodies make no calls (semantics/graph/inline_rd.hpp): an rd that
    // nests in another has its bodies copied by the outer one, so nothing is inlined then.
    if (rd_lowering != RdLowering::Adjoint || nested) return;
    std::vector<RdSites> inline_now;
    for (const RdRequest& r : rd_requests_) {
      RdSites s{r.forward_site, r.adjoint_site};
      if (inlinable(g, s)) inline_now.push_back(s);
    }
    inline_rds(g, inline_now);
  }

  // Call_i^j -> the callee's input j (an edge into another body), for every call site once the
  // bodies are complete.
  void wire_calls() {
    for (const CallSite& s : g.sites) {
      const Body& callee = g.bodies[s.callee];
      internal_check(s.calls.size() == callee.inputs.size(), "a call site's arity");
      for (std::uint32_t j = 0; j < s.calls.size(); ++j) {
        NodeId call = s.calls[j];
        NodeId in = callee.inputs[j];
        g.nodes[in].inputs.push_back(Port{call, 0});
        g.nodes[call].outputs[0].push_back(Dest{in, g.nodes[in].num_inputs() - 1});
      }
    }
  }

  // Return_i^k reads the callee's Exit_k (the thesis: every Return of a function receives
  // every output of that function and filters by the tag's last call site).
  void wire_returns() {
    for (const CallSite& s : g.sites) {
      const Body& callee = g.bodies[s.callee];
      for (std::uint32_t k = 0; k < s.returns.size(); ++k)
        connect(Port{callee.exits[k], 0}, s.returns[k]);
    }
  }

  Ports lookup(Name x, Env& env, Scope& sc, Type* type = nullptr) {
    if (const Binding* b = env.find(x)) {
      if (type) *type = b->type;
      return route(b->ports, b->scope, sc, b->id);
    }
    throw InternalError("internal error: unbound variable " + x.str() + " in graph lowering");
  }

  Ports lower(const Term& t, Scope& sc, Env& env, std::vector<FunBinding>& funs,
              std::vector<const LetRec*>& groups) {
    switch (t.kind()) {
      case TermKind::Var:
        return lookup(t.as<Var>()->name, env, sc);
      case TermKind::Literal: {
        const Literal* lit = t.as<Literal>();
        NodeId id;
        Ports out = value_node(NodeKind::Const, sc, t.loc(), {control(sc)}, 1, &id);
        try {
          g.nodes[id].value = literal_value<double>(*lit);
        } catch (const Undefined& e) {
          g.nodes[id].error = e;  // undefined only if evaluated (it may sit in a dead branch)
        }
        return out;
      }
      case TermKind::Add: {
        const Add* a = t.as<Add>();
        Ports l = lower(a->lhs, sc, env, funs, groups);
        Ports r = lower(a->rhs, sc, env, funs, groups);
        return value_node(NodeKind::Add, sc, t.loc(), {l[0], r[0]}, 1);
      }
      case TermKind::Op: {
        const OpApp* o = t.as<OpApp>();
        Ports in = lower(o->arg, sc, env, funs, groups);
        NodeId id;
        Ports out = value_node(NodeKind::Op, sc, t.loc(), in,
                               static_cast<std::uint32_t>(o->op.result_type().size()), &id);
        g.nodes[id].op = o->op;
        return out;
      }
      case TermKind::Let: {
        const Let* l = t.as<Let>();
        Ports v = lower(l->bound, sc, env, funs, groups);
        env.push_back(Binding{l->var, l->bound.type(), v, &sc, next_binding_++});
        Ports body = lower(l->body, sc, env, funs, groups);
        env.pop_back();
        return body;
      }
      case TermKind::Unit:
        return {};
      case TermKind::Pair: {
        const Pair* p = t.as<Pair>();
        Ports a = lower(p->first, sc, env, funs, groups);
        Ports b = lower(p->second, sc, env, funs, groups);
        a.insert(a.end(), b.begin(), b.end());
        return a;
      }
      case TermKind::Fst: {
        const Fst* f = t.as<Fst>();
        Ports a = lower(f->arg, sc, env, funs, groups);
        a.resize(f->type().size());
        return a;
      }
      case TermKind::Snd: {
        const Snd* s = t.as<Snd>();
        Ports a = lower(s->arg, sc, env, funs, groups);
        std::size_t n1 = s->arg.type().first().size();
        return Ports(a.begin() + static_cast<std::ptrdiff_t>(n1), a.end());
      }
      case TermKind::If:
        return lower_if(*t.as<If>(), sc, env, funs, groups);
      case TermKind::LetRec:
        return lower_letrec(*t.as<LetRec>(), sc, env, funs, groups);
      case TermKind::Call:
        return lower_call(*t.as<Call>(), sc, env, funs, groups);
      case TermKind::Rd:
        return lower_rd(*t.as<Rd>(), sc, env, funs, groups);
    }
    throw InternalError("internal error: unknown term kind in graph lowering");
  }

  Port lower_guard(const BoolTerm& b, Scope& sc, Env& env, std::vector<FunBinding>& funs,
                   std::vector<const LetRec*>& groups) {
    if (const BoolConst* c = b.as<BoolConst>()) {
      NodeId id;
      Ports out = value_node(NodeKind::BoolConst, sc, b.loc(), {control(sc)}, 1, &id);
      g.nodes[id].value = c->value ? 1 : 0;
      return out[0];
    }
    const PredApp* p = b.as<PredApp>();
    Ports in = lower(p->arg, sc, env, funs, groups);
    NodeId id;
    Ports out = value_node(NodeKind::Pred, sc, b.loc(), in, 1, &id);
    g.nodes[id].pred = p->pred;
    return out[0];
  }

  // if B then M else N: Switch every value entering a branch on B's token; Merge the
  // branches' outputs (Sec. 3.2).
  Ports lower_if(const If& i, Scope& sc, Env& env, std::vector<FunBinding>& funs,
                 std::vector<const LetRec*>& groups) {
    Port pred = lower_guard(i.guard, sc, env, funs, groups);
    IfSwitches sw;
    sw.pred = pred;
    Scope then_sc, else_sc;
    for (Scope* s : {&then_sc, &else_sc}) {
      s->parent = &sc;
      s->body = sc.body;
      s->sw = &sw;
    }
    then_sc.then_side = true;
    else_sc.then_side = false;
    Ports m = lower(i.then_branch, then_sc, env, funs, groups);
    Ports mo = close(then_sc, m, i.then_branch.loc());
    Ports n = lower(i.else_branch, else_sc, env, funs, groups);
    Ports no = close(else_sc, n, i.else_branch.loc());
    Ports out;
    for (std::size_t k = 0; k < mo.size(); ++k) {
      Ports r = value_node(NodeKind::Merge, sc, i.loc(), {mo[k], no[k], pred}, 1);
      out.push_back(r[0]);
    }
    if (m.empty()) return {};  // a zero-width result: the Merge's token stays an effect
    return out;
  }

  Ports lower_letrec(const LetRec& r, Scope& sc, Env& env, std::vector<FunBinding>& funs,
                     std::vector<const LetRec*>& groups) {
    std::size_t mark = funs.size();
    std::vector<std::uint32_t> bodies;
    for (const FunDef& d : r.defs) {
      std::uint32_t b = new_body(d.name.str(), d.loc, d.param_type, d.result_type,
                                 static_cast<std::uint32_t>(d.param_type.size()));
      add_param_names(b, d.param.str(), d.param_type);
      bodies.push_back(b);
      funs.push_back(FunBinding{d.name, b});
    }
    groups.push_back(&r);
    for (std::size_t k = 0; k < r.defs.size(); ++k) {
      const FunDef& d = r.defs[k];
      std::uint32_t b = bodies[k];
      Scope root;
      root.body = b;
      root.ctl = Port{g.bodies[b].inputs.back(), 0};
      root.has_ctl = true;
      Ports params;
      for (std::size_t j = 0; j + 1 < g.bodies[b].inputs.size(); ++j)
        params.push_back(Port{g.bodies[b].inputs[j], 0});
      Env fenv{Binding{d.param, d.param_type, params, &root, next_binding_++}};
      Ports result = lower(d.body, root, fenv, funs, groups);
      close_body(b, root, result);
    }
    Ports out = lower(r.body, sc, env, funs, groups);
    groups.pop_back();
    funs.resize(mark);
    return out;
  }

  // f(M) at call site i: Call_i per argument scalar and one for the control token, Return_i
  // per output (Sec. 5.2.1).
  Ports lower_call(const Call& c, Scope& sc, Env& env, std::vector<FunBinding>& funs,
                   std::vector<const LetRec*>& groups) {
    Ports arg = lower(c.arg, sc, env, funs, groups);
    std::uint32_t callee = UINT32_MAX;
    for (auto it = funs.rbegin(); it != funs.rend(); ++it) {
      if (it->name == c.fun.name) {
        callee = it->body;
        break;
      }
    }
    internal_check(callee != UINT32_MAX, "call of an unbound function in graph lowering");
    arg.push_back(control(sc));
    Ports out = make_site(sc, callee, arg, c.type(), c.loc());
    if (c.type().size() == 0) return {};  // the done token stays an effect
    return out;
  }

  // A call site in scope sc: a Call per input (the last one the control token), a Return per
  // output of a callee of result type `result`. The Calls are wired to the callee's inputs at
  // the end (wire_calls). Returns the Returns' ports.
  Ports make_site(Scope& sc, std::uint32_t callee, const Ports& inputs, Type result,
                  SourceLoc loc) {
    CallSite site;
    site.number = static_cast<std::uint32_t>(g.sites.size()) + 1;
    site.caller = sc.body;
    site.callee = callee;
    site.local = static_cast<std::uint32_t>(g.bodies[sc.body].sites.size());
    site.loc = loc;
    std::uint32_t global = static_cast<std::uint32_t>(g.sites.size());
    for (std::uint32_t j = 0; j < inputs.size(); ++j) {
      NodeId call = add_node(NodeKind::Call, sc.body, loc, {inputs[j]}, 1);
      g.nodes[call].site = global;
      g.nodes[call].index = j;
      g.nodes[call].control = j + 1 == inputs.size();
      site.calls.push_back(call);
    }
    Ports out;
    std::uint32_t nout = Graph::output_count(result);
    for (std::uint32_t k = 0; k < nout; ++k) {
      NodeId ret;
      Ports p = value_node(NodeKind::Return, sc, loc, {}, 1, &ret);
      g.nodes[ret].site = global;
      g.nodes[ret].index = k;
      site.returns.push_back(ret);
      out.push_back(p[0]);
    }
    site.pos = g.nodes[site.returns.back()].pos;
    g.bodies[sc.body].sites.push_back(global);
    g.sites.push_back(std::move(site));
    return out;
  }

  // W.rd_V(x:T. N): one Rd node that evaluates the redex on the host (symbolic evaluation and
  // R) with the letrec groups in scope; its inputs are W, V, N's other free variables, ctl.
  Ports lower_rd(const Rd& r, Scope& sc, Env& env, std::vector<FunBinding>& funs,
                 std::vector<const LetRec*>& groups) {
    // The point L is evaluated before the cotangent M (Fig. 2's evaluation contexts).
    Ports l = lower(r.point, sc, env, funs, groups);
    Ports w = lower(r.cotangent, sc, env, funs, groups);
    if (rd_lowering != RdLowering::Host && !host_rds.count(&r))
      return lower_rd_adjoint(r, l, w, sc, env, funs, groups);
    auto prog = std::make_shared<RdProgram>();
    Name zm("%cotangent"), zl("%point");
    Type t = r.point.type();
    Term redex = mk::rd(mk::var(zm, r.cotangent.type(), r.cotangent.loc()),
                        mk::var(zl, t, r.point.loc()), r.var, t, r.body, r.loc());
    for (auto it = groups.rbegin(); it != groups.rend(); ++it)
      redex = mk::letrec((*it)->defs, redex, (*it)->loc());
    prog->term = redex;
    prog->inputs.push_back({zm, r.cotangent.type()});
    prog->inputs.push_back({zl, t});
    Ports in = w;
    in.insert(in.end(), l.begin(), l.end());
    NameSet fv = free_vars(r.body);
    fv.erase(r.var);
    std::vector<Name> sorted(fv.begin(), fv.end());
    std::sort(sorted.begin(), sorted.end());
    for (Name x : sorted) {
      Type xt;
      Ports v = lookup(x, env, sc, &xt);
      prog->inputs.push_back({x, xt});
      in.insert(in.end(), v.begin(), v.end());
    }
    in.push_back(control(sc));
    NodeId id;
    Ports out = value_node(NodeKind::Rd, sc, r.loc(), in, Graph::output_count(t), &id);
    g.nodes[id].rd = prog;
    if (t.size() == 0) return {};
    return out;
  }

  // W.rd_V(x:T. N) in reverse mode (docs/graph-ad.md): N is the body of a function of x and
  // its other free variables; the host calls its forward body with V, and then, once the
  // forward activation has returned (everything it saved is in the store), its adjoint body
  // with W, at the same tag. The adjoint's first |T| outputs are W.rd_V(x:T. N).
  Ports lower_rd_adjoint(const Rd& r, const Ports& l, const Ports& w, Scope& sc, Env& env,
                         std::vector<FunBinding>& funs, std::vector<const LetRec*>& groups) {
    const Type t = r.point.type();
    NameSet fv = free_vars(r.body);
    fv.erase(r.var);
    std::vector<Name> sorted(fv.begin(), fv.end());
    std::sort(sorted.begin(), sorted.end());
    Ports args = l;
    Type param = t;
    std::vector<Type> fv_types;
    for (Name x : sorted) {
      Type xt;
      Ports v = lookup(x, env, sc, &xt);
      args.insert(args.end(), v.begin(), v.end());
      fv_types.push_back(xt);
      param = Type::pair(param, xt);
    }
    const Type result = r.body.type();
    std::uint32_t b =
        new_body("rd@" + std::to_string(r.loc().line) + ":" + std::to_string(r.loc().col), r.loc(),
                 param, result, static_cast<std::uint32_t>(param.size()));
    add_param_names(b, r.var.str(), t);
    for (std::size_t k = 0; k < sorted.size(); ++k)
      add_param_names(b, sorted[k].str(), fv_types[k]);
    {
      Scope root;
      root.body = b;
      root.ctl = Port{g.bodies[b].inputs.back(), 0};
      root.has_ctl = true;
      Env benv;
      std::uint32_t k = 0;
      auto bind = [&](Name x, Type xt) {
        Ports ports;
        for (std::size_t i = 0; i < xt.size(); ++i)
          ports.push_back(Port{g.bodies[b].inputs[k++], 0});
        benv.push_back(Binding{x, xt, ports, &root, next_binding_++});
      };
      bind(r.var, t);
      for (std::size_t i = 0; i < sorted.size(); ++i)
        bind(sorted[i], fv_types[i]);
      Ports out = lower(r.body, root, benv, funs, groups);
      close_body(b, root, out);
    }
    args.push_back(control(sc));
    Ports fwd = make_site(sc, b, args, result, r.loc());
    std::uint32_t forward_site = static_cast<std::uint32_t>(g.sites.size()) - 1;
    // The adjoint waits for the forward activation to return: its control token is joined
    // with the forward's outputs (which also makes the rd undefined when N is).
    Ports join = fwd;
    join.push_back(control(sc));
    Ports after = value_node(NodeKind::Sync, sc, r.loc(), join, 1);
    Ports adj_args = w;
    adj_args.push_back(after[0]);
    Ports out = make_site(sc, b, adj_args, param, r.loc());
    std::uint32_t adjoint_site = static_cast<std::uint32_t>(g.sites.size()) - 1;
    rd_requests_.push_back(RdRequest{&r, b, forward_site, adjoint_site});
    // The cotangents of the free variables are dropped, and are not effects of the host: R
    // (Fig. 6, and the linear R) computes no cotangent for them, so an undefinedness in their
    // reverse templates (y / z's -y / (z * z) underflowing to a division by zero) is not the
    // rd's. x's cotangents carry the forward activation's undefinedness (the adjoint's
    // control); when x is of type unit, the dropped ones must carry it, and stay effects.
    if (t.size() > 0)
      for (std::size_t k = t.size(); k < out.size(); ++k)
        consumed_[out[k].node][out[k].index] = 1;
    out.resize(t.size());
    if (t.size() == 0) return {};  // the adjoint's done token stays an effect
    return out;
  }
};

// Renumbers the nodes so that each body's nodes have contiguous ids (local = id - first);
// nodes in no body's list (an inlined rd's boundary, semantics/graph/inline_rd.hpp) go.
void renumber(Graph& g) {
  std::vector<NodeId> to(g.nodes.size(), kNoNode);
  NodeId next = 0;
  for (Body& b : g.bodies) {
    b.first = next;
    for (NodeId id : b.nodes)
      to[id] = next++;
  }
  std::vector<Node> nodes(next);
  for (NodeId id = 0; id < g.nodes.size(); ++id) {
    if (to[id] == kNoNode) continue;
    Node& n = g.nodes[id];
    for (Port& p : n.inputs)
      p.node = to[p.node];
    for (auto& out : n.outputs)
      for (Dest& d : out)
        d.node = to[d.node];
    nodes[to[id]] = std::move(n);
  }
  g.nodes = std::move(nodes);
  for (Body& b : g.bodies) {
    for (NodeId& id : b.nodes)
      id = to[id];
    for (NodeId& id : b.inputs)
      id = to[id];
    for (NodeId& id : b.exits)
      id = to[id];
  }
  for (CallSite& s : g.sites) {
    for (NodeId& id : s.calls)
      id = to[id];
    for (NodeId& id : s.returns)
      id = to[id];
  }
}

void assign_slots(Graph& g) {
  for (Body& b : g.bodies) {
    b.num_slots = 0;
    b.num_multi = 0;
    b.multi_index.assign(b.nodes.size(), UINT32_MAX);
    for (NodeId id : b.nodes) {
      Node& n = g.nodes[id];
      bool multi =
          n.inputs.size() > 1 && n.kind != NodeKind::InputMerge && n.kind != NodeKind::Return;
      if (!multi) continue;
      n.slot = b.num_slots;
      b.num_slots += n.num_inputs();
      b.multi_index[n.local] = b.num_multi++;
    }
  }
}

}  // namespace

Graph lower_to_graph(const Term& program, const std::vector<std::pair<Name, Type>>& inputs,
                     RdLowering rd) {
  std::set<const Rd*> host;
  for (;;) {
    Lowering l;
    l.rd_lowering = rd;
    l.host_rds = host;
    l.lower_program(program, inputs);
    if (!l.needs_host.empty()) {
      host.insert(l.needs_host.begin(), l.needs_host.end());
      continue;
    }
    renumber(l.g);
    assign_slots(l.g);
    // The lowering, the adjoint bodies of its rds and the inlined rds, checked as one graph.
    if (ir_verification_on()) verify(l.g);
    return std::move(l.g);
  }
}

}  // namespace adlang::graph
