// The one generic walk over core terms (docs/style.md items 1 and 3): every pass that needs to
// visit or rebuild the immediate subterms of a node generically uses this file, so that all passes
// see the subterms of a node in the same order.
//
// The order is evaluation order (Fig. 2): Add lhs, rhs; Op arg; Let bound, body; Pair first,
// second; Fst/Snd arg; If guard argument (when the guard is pred(M)), then, else; LetRec each
// function body in order, then the body; Call arg; Rd cotangent, point, body.
//
// Traces of loops are let chains a million deep, too deep to recurse along: TermMutator walks
// with an explicit stack, and for_each_subterm is the primitive for hand-written iterative
// walks (term_size, free variables, R's sharing analysis).
#pragma once

#include <cstddef>
#include <vector>

#include "lang/term.hpp"

namespace adlang {

// Calls f(child) for each immediate subterm of t, in the order above; returns the nodes t has
// besides its subterms: the guard's predicate node (2 with its argument as a subterm, 1 for a
// constant guard), else 0.
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
      double extra = 1;
      if (const PredApp* p = i->guard.as<PredApp>()) {
        f(p->arg);
        extra = 2;
      }
      f(i->then_branch);
      f(i->else_branch);
      return extra;
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

// The immediate subterms of t, in the order above.
std::vector<Term> subterms_of(const Term& t);

// t with its immediate subterms replaced by `kids` (in the order above, as many as
// subterms_of(t) returns), rebuilt through the validating factories; t itself when every kid is
// the node it replaces. Binders, function names and ids are kept.
Term with_subterms(const Term& t, const std::vector<Term>& kids);

// A pass over a term: walks it with an explicit stack (any depth), calling the hooks below, and
// rebuilds each node from its mutated subterms. A pass that changes nothing returns the very
// node it was given (checked as a property in tests/lang/term_visitor_test.cpp); passes that
// only inspect a term (the verifier, resolution's scoping) use the same walk.
class TermMutator {
 public:
  virtual ~TermMutator() = default;
  Term mutate(const Term& root);

 protected:
  // Called on reaching t, before its subterms. A non-null result replaces t, and t's subterms
  // are not walked.
  virtual Term pre(const Term& t);
  // Called just before and just after walking subterm number i of t (scoping: a Let's variable
  // is in scope in subterm 1, a LetRec's functions in all of them, an Rd's variable in 2).
  virtual void enter_subterm(const Term& t, std::size_t i);
  virtual void leave_subterm(const Term& t, std::size_t i);
  // Called after t's subterms with t rebuilt from them (t itself if none changed); its result
  // replaces t.
  virtual Term post(const Term& t, const Term& rebuilt);
};

}  // namespace adlang
