// The hook through which the ordinary and symbolic evaluators report the judgements they
// establish, so that derivation trees (semantics/derivation.hpp) come from the evaluators that
// define the semantics rather than from a second implementation of the rules.
//
// When EvalContext::recorder is set, each evaluator opens an event when it starts on a term
// and closes it with the result; events nest as the evaluators' work nests. The record is
// compositional (one event per subterm the evaluator meets); semantics/derivation.cpp arranges
// it into the paper's rules, including the context rules of Figs. 3 and 5.
//
// What each evaluator records (the children of an event, in order):
//   ordinary (semantics/ordinary_eval.cpp), one Eval event per subterm evaluated:
//     x, r, *                  none
//     M + N, <M, N>            M, N
//     op(M), fst M, snd M      M
//     let x = M in N           M, N                      (N under rho[V/x])
//     if B then M else N       EvalBool(B), the branch taken
//     pred(M) (EvalBool)       M
//     letrec ... in N          N
//     f(M)                     M, the body of f          (binds the parameter)
//     M.rd_L(x. N)             L, M, Sym(W.rd_V(x. N))   (the redex it traces)
//   symbolic (semantics/symbolic_eval.cpp), for M in the trivial context a Sym event whose
//   children are, in order, one SymContext per redex met in a non-trivial context (Fig. 5,
//   first rule; its child is the redex's SymRedex) or SymBool per predicate decided in a
//   guard (Fig. 5, second rule), then the SymRedex of the remaining redex, if any:
//     SymRedex of let/call     Sym(body)                 (binds the variable / parameter)
//     SymRedex of if, letrec   Sym(the branch / body)
//     SymRedex of rd           Sym(body) (binds x), then the Eval of the trace, when the
//                              reference evaluator computes its value
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lang/name.hpp"
#include "lang/term.hpp"

namespace adlang {

struct FunFrame;

enum class EventKind {
  Eval,        // phi | rho |- M => V
  EvalBool,    // phi | rho |- B => V_bool
  Sym,         // phi | rho |- M ~> C, M in the trivial context
  SymRedex,    // phi | rho |- R ~> C for a redex R (Fig. 4)
  SymContext,  // Fig. 5: the redex of `term` (a subterm) met in a non-trivial context
  SymBool,     // Fig. 5: the predicate of the guard of `term` (an if) decided
};

struct DerivationEvent {
  EventKind kind = EventKind::Eval;
  Term term;                                        // the subject (see above)
  BoolTerm bool_term;                               // EvalBool, SymBool: the boolean term
  std::vector<std::string> phi;                     // the functions in scope, innermost last
  std::vector<std::pair<Name, std::string>> binds;  // variables bound for the premises
  std::string value;                                // the value, printed ("true"/"false")
  Term trace;                                       // Sym, SymRedex, SymContext: C
  Name var;                                         // SymContext: the fresh variable
  std::vector<DerivationEvent> children;
};

class DerivationRecorder {
 public:
  // At most `max_events` events are recorded; one more throws Undefined (TraceSize).
  explicit DerivationRecorder(std::uint64_t max_events = 2'000'000) : max_events_(max_events) {}

  void enter(EventKind k, const Term& t, const FunFrame* phi);
  void enter_bool(EventKind k, const BoolTerm& b, const Term& t, const FunFrame* phi);
  // A variable the open event binds for its premises (let, call parameter, rd variable).
  void bind(Name x, std::string value);
  void leave(std::string value, Term trace = {}, Name var = Name());

  // The first top-level event, once it is closed.
  const DerivationEvent& root() const;
  bool complete() const { return open_.empty() && !done_.empty(); }

 private:
  std::uint64_t max_events_;
  std::uint64_t events_ = 0;
  std::vector<DerivationEvent> open_;
  std::vector<DerivationEvent> done_;  // closed top-level events
};

}  // namespace adlang
