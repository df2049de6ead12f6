#include "checker/term_edit.hpp"

#include <algorithm>

#include "lang/diagnostics.hpp"
#include "lang/stack.hpp"

namespace adlang::checker {

std::vector<Term> children(const Term& t) {
  switch (t.kind()) {
    case TermKind::Var:
    case TermKind::Literal:
    case TermKind::Unit:
      return {};
    case TermKind::Add:
      return {t.as<Add>()->lhs, t.as<Add>()->rhs};
    case TermKind::Op:
      return {t.as<OpApp>()->arg};
    case TermKind::Let:
      return {t.as<Let>()->bound, t.as<Let>()->body};
    case TermKind::Pair:
      return {t.as<Pair>()->first, t.as<Pair>()->second};
    case TermKind::Fst:
      return {t.as<Fst>()->arg};
    case TermKind::Snd:
      return {t.as<Snd>()->arg};
    case TermKind::If: {
      const If* i = t.as<If>();
      std::vector<Term> k;
      if (const PredApp* p = i->guard.as<PredApp>()) k.push_back(p->arg);
      k.push_back(i->then_branch);
      k.push_back(i->else_branch);
      return k;
    }
    case TermKind::LetRec: {
      std::vector<Term> k;
      for (const FunDef& d : t.as<LetRec>()->defs)
        k.push_back(d.body);
      k.push_back(t.as<LetRec>()->body);
      return k;
    }
    case TermKind::Call:
      return {t.as<Call>()->arg};
    case TermKind::Rd:
      return {t.as<Rd>()->cotangent, t.as<Rd>()->point, t.as<Rd>()->body};
  }
  throw InternalError("internal error: unknown term kind");
}

Term with_children(const Term& t, const std::vector<Term>& k) {
  std::vector<Term> old = children(t);
  internal_check(old.size() == k.size(), "with_children: wrong number of children");
  bool same = true;
  for (std::size_t i = 0; i < k.size(); ++i)
    same = same && old[i].same_as(k[i]);
  if (same) return t;
  SourceLoc loc = t.loc();
  switch (t.kind()) {
    case TermKind::Var:
    case TermKind::Literal:
    case TermKind::Unit:
      return t;
    case TermKind::Add:
      return mk::add(k[0], k[1], loc);
    case TermKind::Op:
      return mk::op(t.as<OpApp>()->op, k[0], loc);
    case TermKind::Let:
      return mk::let(t.as<Let>()->var, k[0].type(), k[0], k[1], loc);
    case TermKind::Pair:
      return mk::pair(k[0], k[1], loc);
    case TermKind::Fst:
      return mk::fst(k[0], loc);
    case TermKind::Snd:
      return mk::snd(k[0], loc);
    case TermKind::If: {
      const If* i = t.as<If>();
      std::size_t j = 0;
      BoolTerm guard = i->guard;
      if (const PredApp* p = i->guard.as<PredApp>()) guard = mk::pred(p->pred, k[j++], guard.loc());
      Term a = k[j], b = k[j + 1];
      return mk::if_(guard, a, b, loc);
    }
    case TermKind::LetRec: {
      std::vector<FunDef> defs = t.as<LetRec>()->defs;
      for (std::size_t j = 0; j < defs.size(); ++j)
        defs[j].body = k[j];
      return mk::letrec(std::move(defs), k.back(), loc);
    }
    case TermKind::Call: {
      const Call* c = t.as<Call>();
      return mk::call(c->fun, c->param_type, t.type(), k[0], loc);
    }
    case TermKind::Rd: {
      const Rd* r = t.as<Rd>();
      return mk::rd(k[0], k[1], r->var, k[1].type(), k[2], loc);
    }
  }
  throw InternalError("internal error: unknown term kind");
}

namespace {

struct FunSig {
  Name name;
  Type param, result;
};

bool scoped(const Term& t, std::vector<TypedName>& gamma, std::vector<FunSig>& phi) {
  check_stack("the term is nested too deeply");
  auto bind = [&](Name x, Type ty, const Term& body) {
    gamma.push_back(TypedName{x, ty});
    bool ok = scoped(body, gamma, phi);
    gamma.pop_back();
    return ok;
  };
  switch (t.kind()) {
    case TermKind::Var: {
      Name x = t.as<Var>()->name;
      for (std::size_t i = gamma.size(); i-- > 0;)
        if (gamma[i].name == x) return gamma[i].type == t.type();
      return false;
    }
    case TermKind::Let: {
      const Let* l = t.as<Let>();
      return scoped(l->bound, gamma, phi) && bind(l->var, l->bound.type(), l->body);
    }
    case TermKind::Rd: {
      const Rd* r = t.as<Rd>();
      return scoped(r->cotangent, gamma, phi) && scoped(r->point, gamma, phi) &&
             bind(r->var, r->point.type(), r->body);
    }
    case TermKind::LetRec: {
      const LetRec* l = t.as<LetRec>();
      std::size_t mark = phi.size();
      for (const FunDef& d : l->defs)
        phi.push_back(FunSig{d.name, d.param_type, d.result_type});
      bool ok = true;
      for (const FunDef& d : l->defs) {
        // A function body sees only its parameter (Fig. 1).
        std::vector<TypedName> own{TypedName{d.param, d.param_type}};
        ok = ok && d.body.type() == d.result_type && scoped(d.body, own, phi);
      }
      ok = ok && scoped(l->body, gamma, phi);
      phi.resize(mark);
      return ok;
    }
    case TermKind::Call: {
      const Call* c = t.as<Call>();
      bool found = false;
      for (std::size_t i = phi.size(); i-- > 0;) {
        if (phi[i].name == c->fun) {
          found = phi[i].param == c->param_type && phi[i].result == t.type();
          break;
        }
      }
      return found && scoped(c->arg, gamma, phi);
    }
    case TermKind::Literal:
    case TermKind::Add:
    case TermKind::Op:
    case TermKind::Unit:
    case TermKind::Pair:
    case TermKind::Fst:
    case TermKind::Snd:
    case TermKind::If:
      break;
  }
  for (const Term& k : children(t))
    if (!scoped(k, gamma, phi)) return false;
  return true;
}

void collect(const Term& t, std::vector<Term>& out) {
  check_stack("the term is nested too deeply");
  out.push_back(t);
  for (const Term& k : children(t))
    collect(k, out);
}

constexpr std::size_t kDone = std::size_t(-1);

Term replace_at(const Term& t, std::size_t& index, const Term& by) {
  if (index == kDone) return t;
  if (index == 0) {
    index = kDone;
    return by;
  }
  --index;
  std::vector<Term> k = children(t);
  for (Term& c : k)
    c = replace_at(c, index, by);
  return with_children(t, k);
}

}  // namespace

bool well_scoped(const Term& t, const std::vector<TypedName>& inputs) {
  std::vector<TypedName> gamma = inputs;
  std::vector<FunSig> phi;
  return scoped(t, gamma, phi);
}

std::vector<Term> subterms(const Term& t) {
  std::vector<Term> out;
  collect(t, out);
  return out;
}

Term replace_subterm(const Term& t, std::size_t index, const Term& by) {
  try {
    std::size_t i = index;
    Term r = replace_at(t, i, by);
    return r;
  } catch (const InternalError&) {
    return Term();
  }
}

std::size_t node_count(const Term& t) {
  return subterms(t).size();
}

bool is_polynomial_term(const Term& t) {
  for (const Term& s : subterms(t))
    if (const OpApp* o = s.as<OpApp>(); o && !o->op.is_polynomial()) return false;
  return true;
}

}  // namespace adlang::checker
