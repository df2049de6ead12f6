// Reverse mode inside the tagged graph (docs/graph-ad.md): the forward and adjoint bodies of a
// graph body, built from its nodes by the reverse rules of the node kinds and the reverse
// templates of the operator table.
//
// For a body b : T -> U, its forward body computes what b computes and, with Save nodes, keeps
// in the store what the adjoints need (the arguments of the operators whose reverse template
// reads them, and the predicates of conditionals), keyed by (slot, tag); its adjoint body
// b' : U -> T takes the cotangent of b's result and returns the cotangent of its argument. The
// adjoint activation of a call has the same tag as its forward activation (the adjoint call
// site of Call_i/Return_i uses i as its tag element, CallSite::mirror), so its Loads read what
// the forward activation saved; a value is taken, and freed, by its one Load.
//
// The rules, by node kind (contributions to an input port are summed, fan-out <-> addition):
//   Const, BoolConst  the control input receives the cotangent as an ordering token
//   Add               both inputs receive the cotangent
//   Op                the reverse template op_r(<x, w>), x the saved arguments
//   Pred              zero cotangents to its inputs, after the predicate's cotangent token
//   Switch (d, p)     d receives Merge(cot d_t, cot d_f, saved p)
//   Merge (t, e, p)   Switch(cot v, saved p) to t and e
//   Gate, Sync        the value passes its cotangent, the others a zero after it
//   Call_i/Return_i   an adjoint call site of the same tag element i into the callee's adjoint
//   InputMerge, Exit  the adjoint body's Exit and InputMerge
//   Save (slot s)     identity, plus what the adjoint of s's Load saved in slot s'
//   Load (slot s)     saves the cotangent in slot s' (a Save)
// A conditional's adjoint runs on the side its saved predicate selects: every adjoint node of a
// branch is reached through a Switch on that predicate, so it fires exactly when its forward
// node fired. The adjoint body is made of the same node kinds (the set {Const, BoolConst, Add,
// Op, Pred, Switch, Merge, InputMerge, Call, Return, Exit, Sync, Gate, Save, Load} is closed
// under these rules), which is why an rd inside a differentiated body is differentiated by the
// same procedure (nested derivatives).
#pragma once

#include <cstdint>
#include <memory>

#include "semantics/graph/graph.hpp"

namespace adlang::graph {

class Differentiator {
 public:
  // `nested`: some rd's bodies are differentiated again by another rd (an rd inside an rd's
  // body, or inside a function it calls). Then every adjoint keeps its ordering tokens, so
  // that the forward copy of an adjoint returns only after everything it saved is in the store
  // (docs/graph-ad.md, "Ordering tokens").
  Differentiator(Graph& g, bool nested);
  ~Differentiator();
  Differentiator(const Differentiator&) = delete;
  Differentiator& operator=(const Differentiator&) = delete;

  // Differentiates body `root` (the body of an rd, used by nothing else) in place: it becomes
  // its own forward body, and the returned body is its adjoint. Every body it calls gets a
  // forward and an adjoint body (once per Differentiator). Works on a graph whose cross-body
  // edges (Call -> InputMerge, Exit -> Return) are not wired yet (semantics/graph/lower.cpp
  // wires them at the end), before renumbering.
  std::uint32_t differentiate_root(std::uint32_t root);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace adlang::graph
