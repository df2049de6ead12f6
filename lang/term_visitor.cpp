#include "lang/term_visitor.hpp"

#include <utility>

#include "lang/diagnostics.hpp"

namespace adlang {

std::vector<Term> subterms_of(const Term& t) {
  std::vector<Term> kids;
  for_each_subterm(t, [&](const Term& c) { kids.push_back(c); });
  return kids;
}

namespace {

bool same_nodes(const std::vector<Term>& a, const std::vector<Term>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!a[i].same_as(b[i])) return false;
  return true;
}

}  // namespace

Term with_subterms(const Term& t, const std::vector<Term>& k) {
  std::vector<Term> old = subterms_of(t);
  internal_check(old.size() == k.size(), "with_subterms: wrong number of subterms");
  if (same_nodes(old, k)) return t;
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
      BoolTerm guard = i->guard;
      std::size_t next = 0;
      if (const PredApp* p = guard.as<PredApp>()) {
        guard = k[0].same_as(p->arg) ? guard : mk::pred(p->pred, k[0], guard.loc());
        next = 1;
      }
      return mk::if_(guard, k[next], k[next + 1], loc);
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
  throw InternalError("internal error: unknown term kind in with_subterms");
}

Term TermMutator::pre(const Term&) {
  return Term();
}

void TermMutator::enter_subterm(const Term&, std::size_t) {}

void TermMutator::leave_subterm(const Term&, std::size_t) {}

Term TermMutator::post(const Term&, const Term& rebuilt) {
  return rebuilt;
}

// Post-order with an explicit stack: a frame per node on the path from the root. The frames'
// subterms and mutated subterms so far are kept in two vectors shared by all frames, each frame's
// after its parent's (a frame's own vectors cost two allocations per node walked).
Term TermMutator::mutate(const Term& root) {
  struct Frame {
    Term node;
    std::size_t kids;   // where its subterms start in `kids`
    std::size_t count;  // how many it has
    std::size_t done;   // where its mutated subterms start in `done`
  };
  std::vector<Frame> stack;
  std::vector<Term> kids, done;
  Term finished;  // the result of the node just completed
  auto reach = [&](const Term& t) {
    Term replaced = pre(t);
    if (replaced) {
      finished = replaced;
      return false;
    }
    const std::size_t first = kids.size();
    for_each_subterm(t, [&](const Term& c) { kids.push_back(c); });
    stack.push_back(Frame{t, first, kids.size() - first, done.size()});
    return true;
  };
  if (!reach(root)) return finished;
  while (true) {
    Frame& f = stack.back();
    if (done.size() - f.done < f.count) {
      const std::size_t i = done.size() - f.done;
      enter_subterm(f.node, i);
      Term kid = kids[f.kids + i];
      if (reach(kid)) continue;
      done.push_back(finished);
      leave_subterm(stack.back().node, i);
      continue;
    }
    Term node = std::move(f.node);
    bool same = true;
    for (std::size_t j = 0; j < f.count && same; ++j)
      same = kids[f.kids + j].same_as(done[f.done + j]);
    Term rebuilt =
        same ? node : with_subterms(node, std::vector<Term>(done.begin() + f.done, done.end()));
    kids.resize(f.kids);
    done.resize(f.done);
    stack.pop_back();
    finished = post(node, rebuilt);
    if (stack.empty()) return finished;
    done.push_back(finished);
    leave_subterm(stack.back().node, done.size() - 1 - stack.back().done);
  }
}

}  // namespace adlang
