#include "lang/rename.hpp"

#include <unordered_map>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/free_vars.hpp"
#include "support/stack.hpp"

namespace adlang {

namespace {

// A scoped renaming of variables: bound names map to their new names; free names map to a
// replacement term (substitution) or to themselves.
class Renamer {
 public:
  Renamer(NameSupply& names, NameSet taken) : names_(names), taken_(std::move(taken)) {}

  // When true every binder must be new (rename_apart); otherwise a binder is renamed only
  // if it would capture a free variable of a substituted term.
  bool all_binders_distinct = false;
  std::unordered_map<Name, Term, NameHash> substitution;  // free variable -> term

  Term term(const Term& t) {
    const StackScope stack_scope = check_stack("a term is nested too deeply to rename");
    switch (t.kind()) {
      case TermKind::Var: {
        const Var* v = t.as<Var>();
        auto it = scope_.find(v->name);
        if (it != scope_.end() && !it->second.empty()) {
          Name to = it->second.back();
          return to == v->name ? t : mk::var(to, t.type(), t.loc());
        }
        auto s = substitution.find(v->name);
        return s == substitution.end() ? t : s->second;
      }
      case TermKind::Literal:
      case TermKind::Unit:
        return t;
      case TermKind::Add: {
        const Add* a = t.as<Add>();
        Term l = term(a->lhs), r = term(a->rhs);
        if (l.same_as(a->lhs) && r.same_as(a->rhs)) return t;
        return mk::add(l, r, t.loc());
      }
      case TermKind::Op: {
        const OpApp* o = t.as<OpApp>();
        Term arg = term(o->arg);
        return arg.same_as(o->arg) ? t : mk::op(o->op, arg, t.loc());
      }
      case TermKind::Let: {
        const Let* l = t.as<Let>();
        Term bound = term(l->bound);
        Name x = enter(l->var);
        Term body = term(l->body);
        leave(l->var);
        if (bound.same_as(l->bound) && x == l->var && body.same_as(l->body)) return t;
        return mk::let(x, bound.type(), bound, body, t.loc());
      }
      case TermKind::Pair: {
        const Pair* p = t.as<Pair>();
        Term a = term(p->first), b = term(p->second);
        if (a.same_as(p->first) && b.same_as(p->second)) return t;
        return mk::pair(a, b, t.loc());
      }
      case TermKind::Fst: {
        Term a = term(t.as<Fst>()->arg);
        return a.same_as(t.as<Fst>()->arg) ? t : mk::fst(a, t.loc());
      }
      case TermKind::Snd: {
        Term a = term(t.as<Snd>()->arg);
        return a.same_as(t.as<Snd>()->arg) ? t : mk::snd(a, t.loc());
      }
      case TermKind::If: {
        const If* i = t.as<If>();
        BoolTerm g = boolean(i->guard);
        Term m = term(i->then_branch), n = term(i->else_branch);
        if (g.same_as(i->guard) && m.same_as(i->then_branch) && n.same_as(i->else_branch)) return t;
        return mk::if_(g, m, n, t.loc());
      }
      case TermKind::LetRec: {
        // Function names are not ordinary variables: only parameters are renamed.
        const LetRec* l = t.as<LetRec>();
        std::vector<FunDef> defs = l->defs;
        bool changed = false;
        for (FunDef& d : defs) {
          Name x = enter(d.param);
          Term body = term(d.body);
          leave(d.param);
          changed = changed || x != d.param || !body.same_as(d.body);
          d.param = x;
          d.body = body;
        }
        Term body = term(l->body);
        if (!changed && body.same_as(l->body)) return t;
        return mk::letrec(std::move(defs), body, t.loc());
      }
      case TermKind::Call: {
        const Call* c = t.as<Call>();
        Term arg = term(c->arg);
        return arg.same_as(c->arg) ? t : mk::call(c->fun, c->param_type, c->type(), arg, t.loc());
      }
      case TermKind::Rd: {
        const Rd* r = t.as<Rd>();
        Term m = term(r->cotangent), l = term(r->point);
        Name x = enter(r->var);
        Term n = term(r->body);
        leave(r->var);
        if (m.same_as(r->cotangent) && l.same_as(r->point) && x == r->var && n.same_as(r->body))
          return t;
        return mk::rd(m, l, x, l.type(), n, t.loc());
      }
    }
    throw InternalError("internal error: unknown term kind in renamer");
  }

  BoolTerm boolean(const BoolTerm& b) {
    const PredApp* p = b.as<PredApp>();
    if (!p) return b;
    Term arg = term(p->arg);
    return arg.same_as(p->arg) ? b : mk::pred(p->pred, arg, b.loc());
  }

 private:
  NameSupply& names_;
  NameSet taken_;  // names a binder may not keep
  std::unordered_map<Name, std::vector<Name>, NameHash> scope_;

  Name enter(Name x) {
    Name to = x;
    if (taken_.count(x)) {
      to = names_.fresh(x.str());
    }
    if (all_binders_distinct) taken_.insert(to);
    scope_[x].push_back(to);
    return to;
  }
  void leave(Name x) { scope_[x].pop_back(); }
};

}  // namespace

Term rename_apart(const Term& t, const NameSet& avoid, NameSupply& names) {
  NameSet taken = avoid;
  add_free_vars(t, taken);
  for (const Name& n : taken)
    names.reserve(n);
  reserve_names(t, names);
  Renamer r(names, std::move(taken));
  r.all_binders_distinct = true;
  return r.term(t);
}

Term substitute(const Term& t, Name x, const Term& v, NameSupply& names) {
  if (!occurs_free(x, t)) return t;
  NameSet taken = free_vars(v);
  for (const Name& n : taken)
    names.reserve(n);
  reserve_names(t, names);
  Renamer r(names, std::move(taken));
  r.substitution.emplace(x, v);
  return r.term(t);
}

}  // namespace adlang
