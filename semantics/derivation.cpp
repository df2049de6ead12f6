#include "semantics/derivation.hpp"

#include "lang/diagnostics.hpp"
#include "lang/free_vars.hpp"

namespace adlang {

std::size_t Derivation::size() const {
  std::size_t n = 1;
  for (const Derivation& p : premises)
    n += p.size();
  return n;
}

namespace {

// ---- evaluation positions (the contexts E of Sec. 3) ------------------------------------

// The subterms of t in evaluation position, in evaluation order: E + N, V + E; op(E);
// let x = E in N; <E, N>, <V, E>; fst E; snd E; if pred(E) then M else N; f(E);
// M.rd_E(x. N), E.rd_V(x. N).
int position_count(const Term& t) {
  switch (t.kind()) {
    case TermKind::Add:
    case TermKind::Pair:
    case TermKind::Rd:
      return 2;
    case TermKind::Op:
    case TermKind::Let:
    case TermKind::Fst:
    case TermKind::Snd:
    case TermKind::Call:
      return 1;
    case TermKind::If:
      return t.as<If>()->guard.kind() == BoolKind::Pred ? 1 : 0;
    case TermKind::Var:
    case TermKind::Literal:
    case TermKind::Unit:
    case TermKind::LetRec:
      return 0;
  }
  return 0;
}

Term child_at(const Term& t, int i) {
  switch (t.kind()) {
    case TermKind::Add:
      return i == 0 ? t.as<Add>()->lhs : t.as<Add>()->rhs;
    case TermKind::Pair:
      return i == 0 ? t.as<Pair>()->first : t.as<Pair>()->second;
    case TermKind::Rd:
      return i == 0 ? t.as<Rd>()->point : t.as<Rd>()->cotangent;
    case TermKind::Op:
      return t.as<OpApp>()->arg;
    case TermKind::Let:
      return t.as<Let>()->bound;
    case TermKind::Fst:
      return t.as<Fst>()->arg;
    case TermKind::Snd:
      return t.as<Snd>()->arg;
    case TermKind::Call:
      return t.as<Call>()->arg;
    case TermKind::If:
      return t.as<If>()->guard.as<PredApp>()->arg;
    case TermKind::Var:
    case TermKind::Literal:
    case TermKind::Unit:
    case TermKind::LetRec:
      break;
  }
  throw InternalError("internal error: no subterm in evaluation position");
}

Term with_child(const Term& t, int i, const Term& c) {
  switch (t.kind()) {
    case TermKind::Add: {
      const Add* a = t.as<Add>();
      return mk::add(i == 0 ? c : a->lhs, i == 1 ? c : a->rhs, t.loc());
    }
    case TermKind::Pair: {
      const Pair* p = t.as<Pair>();
      return mk::pair(i == 0 ? c : p->first, i == 1 ? c : p->second, t.loc());
    }
    case TermKind::Rd: {
      const Rd* r = t.as<Rd>();
      Term point = i == 0 ? c : r->point;
      return mk::rd(i == 1 ? c : r->cotangent, point, r->var, point.type(), r->body, t.loc());
    }
    case TermKind::Op:
      return mk::op(t.as<OpApp>()->op, c, t.loc());
    case TermKind::Let: {
      const Let* l = t.as<Let>();
      return mk::let(l->var, c.type(), c, l->body, t.loc());
    }
    case TermKind::Fst:
      return mk::fst(c, t.loc());
    case TermKind::Snd:
      return mk::snd(c, t.loc());
    case TermKind::Call: {
      const Call* k = t.as<Call>();
      return mk::call(k->fun, k->param_type, t.type(), c, t.loc());
    }
    case TermKind::If: {
      const If* f = t.as<If>();
      const PredApp* p = f->guard.as<PredApp>();
      return mk::if_(mk::pred(p->pred, c, f->guard.loc()), f->then_branch, f->else_branch, t.loc());
    }
    case TermKind::Var:
    case TermKind::Literal:
    case TermKind::Unit:
    case TermKind::LetRec:
      break;
  }
  throw InternalError("internal error: no subterm in evaluation position");
}

using Path = std::vector<int>;

Term at(const Term& t, const Path& p) {
  Term cur = t;
  for (int i : p)
    cur = child_at(cur, i);
  return cur;
}

// t with the subterm at p[k..] replaced by c.
Term replace(const Term& t, const Path& p, std::size_t k, const Term& c) {
  if (k == p.size()) return c;
  return with_child(t, p[k], replace(child_at(t, p[k]), p, k + 1, c));
}

// The path of `target` (by identity) among the subterms in evaluation position of `root`.
bool find_path(const Term& root, const Term& target, Path& p) {
  if (root.same_as(target)) return true;
  for (int i = 0; i < position_count(root); ++i) {
    p.push_back(i);
    if (find_path(child_at(root, i), target, p)) return true;
    p.pop_back();
  }
  return false;
}

// The path of the leftmost innermost redex of a non-value t, and whether it is a boolean
// redex pred(V) (then the path is that of the `if` whose guard it is).
void first_redex(const Term& t, Path& p, bool& boolean) {
  for (int i = 0; i < position_count(t); ++i) {
    Term c = child_at(t, i);
    if (!is_value(c)) {
      p.push_back(i);
      first_redex(c, p, boolean);
      return;
    }
  }
  boolean = t.kind() == TermKind::If && t.as<If>()->guard.kind() == BoolKind::Pred;
}

Term decided_if(const Term& t, bool b) {
  const If* f = t.as<If>();
  return mk::if_(mk::bool_const(b, f->guard.loc()), f->then_branch, f->else_branch, t.loc());
}

// ---- judgements --------------------------------------------------------------------------

using Env = std::shared_ptr<const DerivationEnvCell>;

Env extended(const Env& env, Name x, const std::string& v) {
  return std::make_shared<const DerivationEnvCell>(DerivationEnvCell{x, v, env});
}

Derivation judgement(const char* rule, int figure, Judgement j, const DerivationEvent& ev,
                     const Term& subject, const Env& env) {
  Derivation d;
  d.rule = rule;
  d.figure = figure;
  d.judgement = j;
  d.phi = ev.phi;
  d.term = subject;
  d.env = env;
  return d;
}

Derivation eval_judgement(const char* rule, int figure, const DerivationEvent& ev,
                          const Term& subject, const std::string& value, const Env& env) {
  Derivation d = judgement(rule, figure, Judgement::Eval, ev, subject, env);
  d.value = value;
  return d;
}

// phi | rho |- V => rho(V) (Fig. 2): the premises V => V' of the redex rules.
Derivation value_leaf(const DerivationEvent& ev, const Term& v, const std::string& value,
                      const Env& env) {
  return eval_judgement("value", 2, ev, v, value, env);
}

// phi | rho |- pred(V) => W_bool where bev(pred, V') ~ W_bool (Fig. 2).
Derivation pred_rule(const DerivationEvent& ev, const BoolTerm& b, const std::string& arg_value,
                     const std::string& value, const Env& env) {
  const PredApp* p = b.as<PredApp>();
  Derivation d = judgement("pred", 2, Judgement::EvalBool, ev, Term(), env);
  d.bool_term = b;
  d.value = value;
  d.side = "bev(" + p->pred.name() + ", V') = " + value;
  d.premises.push_back(value_leaf(ev, p->arg, arg_value, env));
  return d;
}

// ---- Figs. 4-5 ---------------------------------------------------------------------------

class SymbolicArranger {
 public:
  // phi | rho |- M ~> C for a Sym event.
  Derivation sym(const DerivationEvent& ev, const Env& env) {
    internal_check(ev.kind == EventKind::Sym, "derivation: expected a symbolic judgement");
    std::vector<const DerivationEvent*> steps;
    const DerivationEvent* last = nullptr;
    for (const DerivationEvent& c : ev.children) {
      if (c.kind == EventKind::SymContext || c.kind == EventKind::SymBool) steps.push_back(&c);
      if (c.kind == EventKind::SymRedex) last = &c;
    }
    return chain(ev, ev.term, steps, 0, last, env);
  }

  // phi | rho |- R ~> C for a SymRedex event (Fig. 4).
  Derivation redex(const DerivationEvent& ev, const Env& env) {
    const Term& r = ev.term;
    auto node = [&](const char* rule) {
      Derivation d = judgement(rule, 4, Judgement::Sym, ev, r, env);
      d.trace = ev.trace;
      return d;
    };
    auto child = [&](EventKind k) -> const DerivationEvent& {
      for (const DerivationEvent& c : ev.children)
        if (c.kind == k) return c;
      throw InternalError("internal error: derivation: a premise is missing from the record");
    };
    switch (r.kind()) {
      case TermKind::Add:
        return node("+");
      case TermKind::Op:
        return node("op");
      case TermKind::Fst:
        return node("fst");
      case TermKind::Snd:
        return node("snd");
      case TermKind::Let: {
        const Let* l = r.as<Let>();
        Derivation d = node("let");
        d.premises.push_back(value_leaf(ev, l->bound, ev.binds.at(0).second, env));
        d.premises.push_back(sym(child(EventKind::Sym), extended(env, l->var, ev.binds[0].second)));
        return d;
      }
      case TermKind::If: {
        Derivation d = node(r.as<If>()->guard.as<BoolConst>()->value ? "if true" : "if false");
        d.premises.push_back(sym(child(EventKind::Sym), env));
        return d;
      }
      case TermKind::LetRec: {
        Derivation d = node("letrec");
        d.premises.push_back(sym(child(EventKind::Sym), env));
        return d;
      }
      case TermKind::Call: {
        const Call* c = r.as<Call>();
        Derivation d = node("call");
        d.function = c->fun.name.str();
        d.side = "phi(" + c->fun.name.str() + ") = clo_phi'(" + c->fun.name.str() + "(x:T):U. M)";
        d.premises.push_back(value_leaf(ev, c->arg, ev.binds.at(0).second, env));
        d.premises.push_back(
            sym(child(EventKind::Sym), extended(nullptr, ev.binds[0].first, ev.binds[0].second)));
        return d;
      }
      case TermKind::Rd: {
        const Rd* rd = r.as<Rd>();
        Derivation d = node("rd");
        d.side = "the trace is W.R_V(x:T. C) (Fig. 6)";
        d.premises.push_back(value_leaf(ev, rd->point, ev.binds.at(0).second, env));
        d.premises.push_back(
            sym(child(EventKind::Sym), extended(env, rd->var, ev.binds[0].second)));
        return d;
      }
      case TermKind::Var:
      case TermKind::Literal:
      case TermKind::Unit:
      case TermKind::Pair:
        break;
    }
    throw InternalError("internal error: derivation: a value recorded as a redex");
  }

 private:
  // Fig. 5 applied to the steps[i..] of ev, on t (ev.term with the earlier steps done).
  Derivation chain(const DerivationEvent& ev, const Term& t,
                   const std::vector<const DerivationEvent*>& steps, std::size_t i,
                   const DerivationEvent* last, const Env& env) {
    if (i == steps.size()) {
      if (last) return redex(*last, env);
      Derivation d = judgement("value", 4, Judgement::Sym, ev, t, env);  // V ~> V
      d.trace = t;
      return d;
    }
    const DerivationEvent& step = *steps[i];
    Path p;
    internal_check(find_path(ev.term, step.term, p), "derivation: a context step out of place");
    if (step.kind == EventKind::SymBool) {
      // E[R_bool] ~> C if R_bool => V_bool and E[V_bool] ~> C
      Derivation d = judgement("E[R_bool]", 5, Judgement::Sym, ev, t, env);
      d.premises.push_back(
          pred_rule(step, step.bool_term, step.binds.at(0).second, step.value, env));
      Term next = replace(t, p, 0, decided_if(at(t, p), step.value == "true"));
      d.premises.push_back(chain(ev, next, steps, i + 1, last, env));
      d.trace = d.premises.back().trace;
      return d;
    }
    // E[R] ~> let x:T_V = C in D if R ~> C, C => V and E[x] ~> D under rho[V/x]
    Derivation d = judgement("E[R]", 5, Judgement::Sym, ev, t, env);
    d.side = step.var.str() + " not in Dom(rho)";
    const DerivationEvent& r = step.children.at(0);
    d.premises.push_back(redex(r, env));
    Derivation c = eval_judgement("interpolation", 0, step, step.trace, step.value, env);
    c.side = "V computed alongside C (Prop. 3.5)";
    d.premises.push_back(std::move(c));
    Term next = replace(t, p, 0, mk::var(step.var, step.term.type(), step.term.loc()));
    d.premises.push_back(chain(ev, next, steps, i + 1, last, extended(env, step.var, step.value)));
    d.trace = mk::let(step.var, step.trace.type(), step.trace, d.premises.back().trace, t.loc());
    return d;
  }
};

// ---- Figs. 2-3 ---------------------------------------------------------------------------

class OrdinaryArranger {
 public:
  explicit OrdinaryArranger(NameSupply& names) : names_(names) {}

  // phi | rho |- t => V, t being the recorded term of `rec` with some redexes replaced by
  // variables (Fig. 3).
  Derivation eval(const Term& t, const DerivationEvent& rec, const Env& env) {
    if (is_value(t)) return value_leaf(rec, t, rec.value, env);
    Path p;
    bool boolean = false;
    first_redex(t, p, boolean);
    if (boolean) {
      // E[R_bool] => W if R_bool => V_bool and E[V_bool] => W
      const DerivationEvent& brec = record_at(rec, p).children.at(0);
      const If* f = at(t, p).as<If>();
      Derivation d = eval_judgement("E[R_bool]", 3, rec, t, rec.value, env);
      d.premises.push_back(pred_rule(brec, f->guard, brec.children.at(0).value, brec.value, env));
      Term next = replace(t, p, 0, decided_if(at(t, p), brec.value == "true"));
      d.premises.push_back(eval(next, rec, env));
      return d;
    }
    if (p.empty()) return redex(t, rec, env);
    // E[R] => W if R => V and E[x] => W under rho[V/x] (E non-trivial, x not in Dom(rho))
    Term r = at(t, p);
    const DerivationEvent& rrec = record_at(rec, p);
    Name x = context_variable(t, p, rec);
    Derivation d = eval_judgement("E[R]", 3, rec, t, rec.value, env);
    d.side = x.str() + " not in Dom(rho)";
    d.premises.push_back(redex(r, rrec, env));
    Term next = replace(t, p, 0, mk::var(x, r.type(), r.loc()));
    d.premises.push_back(eval(next, rec, extended(env, x, rrec.value)));
    return d;
  }

 private:
  NameSupply& names_;

  // The record of the subterm at p (record children follow derivation_recorder.hpp).
  static const DerivationEvent& record_at(const DerivationEvent& rec, const Path& p) {
    const DerivationEvent* cur = &rec;
    for (int i : p) {
      switch (cur->term.kind()) {
        case TermKind::Add:
        case TermKind::Pair:
        case TermKind::Rd:
          cur = &cur->children.at(static_cast<std::size_t>(i));
          break;
        case TermKind::If:
          cur = &cur->children.at(0).children.at(0);
          break;
        case TermKind::Var:
        case TermKind::Literal:
        case TermKind::Op:
        case TermKind::Let:
        case TermKind::Unit:
        case TermKind::Fst:
        case TermKind::Snd:
        case TermKind::LetRec:
        case TermKind::Call:
          cur = &cur->children.at(0);
          break;
      }
    }
    return *cur;
  }

  // The variable of a context step. The ordinary evaluator binds the values of a non-value
  // point and cotangent of rd to variables of its own before tracing the redex; the step
  // that completes them uses those names, so that the redex matches the recorded trace.
  Name context_variable(const Term& t, const Path& p, const DerivationEvent& rec) {
    Path parent(p.begin(), p.end() - 1);
    if (at(t, parent).kind() == TermKind::Rd) {
      const DerivationEvent& rd = record_at(rec, parent);
      const Rd* redex = rd.children.at(2).term.as<Rd>();
      const Term& v = p.back() == 0 ? redex->point : redex->cotangent;
      if (const Var* var = v.as<Var>()) return var->name;
    }
    return names_.fresh("x");
  }

  // The redex rules of Fig. 2, for a redex r whose subterms in evaluation position are values.
  Derivation redex(const Term& r, const DerivationEvent& rec, const Env& env) {
    auto node = [&](const char* rule) { return eval_judgement(rule, 2, rec, r, rec.value, env); };
    auto value_of = [&](std::size_t i) -> const std::string& { return rec.children.at(i).value; };
    switch (r.kind()) {
      case TermKind::Add: {
        Derivation d = node("+");
        d.side = "t = r + s";
        d.premises.push_back(value_leaf(rec, r.as<Add>()->lhs, value_of(0), env));
        d.premises.push_back(value_leaf(rec, r.as<Add>()->rhs, value_of(1), env));
        return d;
      }
      case TermKind::Op: {
        const OpApp* o = r.as<OpApp>();
        Derivation d = node("op");
        d.side = "ev(" + o->op.name() + ", V') = " + rec.value;
        d.premises.push_back(value_leaf(rec, o->arg, value_of(0), env));
        return d;
      }
      case TermKind::Fst:
      case TermKind::Snd: {
        Derivation d = node(r.kind() == TermKind::Fst ? "fst" : "snd");
        d.premises.push_back(value_leaf(rec, child_at(r, 0), value_of(0), env));
        return d;
      }
      case TermKind::Let: {
        const Let* l = r.as<Let>();
        Derivation d = node("let");
        d.premises.push_back(value_leaf(rec, l->bound, value_of(0), env));
        const DerivationEvent& body = rec.children.at(1);
        d.premises.push_back(eval(body.term, body, extended(env, l->var, value_of(0))));
        return d;
      }
      case TermKind::If: {
        Derivation d = node(r.as<If>()->guard.as<BoolConst>()->value ? "if true" : "if false");
        const DerivationEvent& branch = rec.children.at(1);
        d.premises.push_back(eval(branch.term, branch, env));
        return d;
      }
      case TermKind::LetRec: {
        Derivation d = node("letrec");
        const DerivationEvent& body = rec.children.at(0);
        d.premises.push_back(eval(body.term, body, env));
        return d;
      }
      case TermKind::Call: {
        const Call* c = r.as<Call>();
        Derivation d = node("call");
        d.function = c->fun.name.str();
        d.side = "phi(" + c->fun.name.str() + ") = clo_phi'(" + c->fun.name.str() + "(x:T):U. M)";
        d.premises.push_back(value_leaf(rec, c->arg, value_of(0), env));
        const DerivationEvent& body = rec.children.at(1);
        d.premises.push_back(
            eval(body.term, body, extended(nullptr, rec.binds.at(0).first, rec.binds[0].second)));
        return d;
      }
      case TermKind::Rd: {
        // W.rd_V(x:T. N) => X if W.rd_V(x:T. N) ~> C and C => X
        Derivation d = node("rd");
        const DerivationEvent& traced = rec.children.at(2);
        d.premises.push_back(SymbolicArranger().sym(traced, env));
        const DerivationEvent* value = nullptr;
        for (const DerivationEvent& c : traced.children.back().children)
          if (c.kind == EventKind::Eval) value = &c;
        internal_check(value != nullptr, "derivation: the trace of rd was not evaluated");
        d.premises.push_back(eval(value->term, *value, env));
        return d;
      }
      case TermKind::Var:
      case TermKind::Literal:
      case TermKind::Unit:
      case TermKind::Pair:
        break;
    }
    return value_leaf(rec, r, rec.value, env);
  }
};

}  // namespace

namespace {

Env env_of(const DerivationEnv& rho) {
  Env env;
  for (const auto& [x, v] : rho)
    env = extended(env, x, v);
  return env;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> judgement_rho(const Derivation& d) {
  NameSet fv;
  if (d.judgement == Judgement::EvalBool) {
    if (const PredApp* p = d.bool_term.as<PredApp>()) fv = free_vars(p->arg);
  } else if (d.term.get()) {
    fv = free_vars(d.term);
  }
  std::vector<std::pair<std::string, std::string>> out;
  NameSet seen;
  for (const DerivationEnvCell* c = d.env.get(); c && seen.size() < fv.size(); c = c->next.get()) {
    if (fv.count(c->name) && seen.insert(c->name).second) out.emplace_back(c->name.str(), c->value);
  }
  return {out.rbegin(), out.rend()};
}

Derivation ordinary_derivation(const DerivationEvent& root, const DerivationEnv& rho,
                               NameSupply& names) {
  internal_check(root.kind == EventKind::Eval, "derivation: expected an ordinary judgement");
  return OrdinaryArranger(names).eval(root.term, root, env_of(rho));
}

Derivation symbolic_derivation(const DerivationEvent& root, const DerivationEnv& rho) {
  return SymbolicArranger().sym(root, env_of(rho));
}

}  // namespace adlang
