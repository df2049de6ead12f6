// The immediate subterms of a term, for passes that walk terms with an explicit stack (traces
// of loops are let chains a million deep, too deep to recurse along).
#pragma once

#include "lang/term.hpp"

namespace adlang {

// Calls f(child) for each immediate subterm of t, in evaluation order (a conditional's guard
// argument last); returns the nodes t has besides its subterms: the guard's predicate node (2
// with its argument as a subterm, 1 for a constant guard), else 0.
template <class F>
double for_each_subterm(const Term& t, F&& f) {
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

}  // namespace adlang
