#include "lang/term_size.hpp"

#include <unordered_map>

#include <utility>
#include <vector>

namespace adlang {

namespace {

// Calls f(child) for each subterm of t; returns the nodes t has besides its subterms (the
// predicate node of a conditional's guard).
template <class F>
double for_each_child(const Term& t, F&& f) {
  switch (t.kind()) {
    case TermKind::Var:
    case TermKind::Literal:
    case TermKind::Unit:
      return 0;
    case TermKind::Add:
      f(t.as<Add>()->lhs);
      f(t.as<Add>()->rhs);
      return 0;
    case TermKind::Op:
      f(t.as<OpApp>()->arg);
      return 0;
    case TermKind::Let:
      f(t.as<Let>()->bound);
      f(t.as<Let>()->body);
      return 0;
    case TermKind::Pair:
      f(t.as<Pair>()->first);
      f(t.as<Pair>()->second);
      return 0;
    case TermKind::Fst:
      f(t.as<Fst>()->arg);
      return 0;
    case TermKind::Snd:
      f(t.as<Snd>()->arg);
      return 0;
    case TermKind::If: {
      const If* i = t.as<If>();
      f(i->then_branch);
      f(i->else_branch);
      if (const PredApp* p = i->guard.as<PredApp>()) {
        f(p->arg);
        return 2;
      }
      return 1;
    }
    case TermKind::LetRec:
      for (const FunDef& d : t.as<LetRec>()->defs)
        f(d.body);
      f(t.as<LetRec>()->body);
      return 0;
    case TermKind::Call:
      f(t.as<Call>()->arg);
      return 0;
    case TermKind::Rd:
      f(t.as<Rd>()->cotangent);
      f(t.as<Rd>()->point);
      f(t.as<Rd>()->body);
      return 0;
  }
  return 0;
}

}  // namespace

// Post-order with an explicit stack (traces of loops are let chains a million deep), each
// distinct node measured once.
TermSize term_size(const Term& root) {
  std::unordered_map<const TermNode*, double> memo;
  std::vector<std::pair<Term, bool>> stack;
  stack.emplace_back(root, false);
  while (!stack.empty()) {
    auto& [t, expanded] = stack.back();
    if (memo.count(t.get())) {
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      expanded = true;
      Term node = t;  // `stack` may reallocate below
      for_each_child(node, [&](const Term& c) {
        if (!memo.count(c.get())) stack.emplace_back(c, false);
      });
      continue;
    }
    Term node = t;
    stack.pop_back();
    double n = 1;
    double extra = for_each_child(node, [&](const Term& c) { n += memo.at(c.get()); });
    n += extra;
    memo.emplace(node.get(), n);
  }
  TermSize s;
  s.tree = memo.at(root.get());
  s.dag = memo.size();
  return s;
}

}  // namespace adlang
