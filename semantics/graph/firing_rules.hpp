// The firing rule of every node kind of the tagged graph (thesis Secs. 3.2, 5.2.1, 5.4.6;
// graph.hpp lists the kinds), written once and called, inline, by every executor: the
// threaded executor's blocks (executor.cpp), the reference executor (reference_executor.cpp)
// and the partitioned executor (partitioned_executor.cpp). What a strict node computes from
// live inputs is in node_value.hpp; where a Merge fires and where deadness is decided is said
// in docs/graph.md ("Deadness").
//
// A rule is a template over the executor's token type T, which has is_live(), is_dead(),
// is_bottom(), is_absent(), value() and the tokens T::dead() and T::absent() (token.hpp's
// Token; the partitioned executor's token). Absent is "no token": under Deadness::Elide the
// untaken side of a Switch receives nothing, and a node none of whose inputs can arrive does
// not fire. A rule returns what the firing counts (GraphStats::tokens and dead_tokens) and
// writes the node's outputs; what happens around it (admitting a call, entering a frame,
// sending an output to the caller) is the executor's.
#pragma once

#include <cstdint>

#include "lang/diagnostics.hpp"

namespace adlang::graph::rules {

// A node's firing, for the statistics: whether it fired, and whether on a dead token.
struct Firing {
  bool fired = false;
  bool dead = false;
};

// Sec. 3.2: what the untaken side of a Switch receives: a dead token (Deadness::Propagate) or
// nothing (Deadness::Elide).
template <class T>
[[gnu::always_inline]] inline T untaken(bool propagate) {
  return propagate ? T::dead() : T::absent();
}

// Switch (d, p) -> d_t, d_f (Sec. 3.2): d to the side the predicate selects (output 0 when it
// is true); the other side gets untaken(propagate). A predicate that is not live (dead, or
// bottom) and a dead d send untaken(propagate) to both sides: a bottom predicate is reported by
// the Merge, which also reads it. No token (absent d or p): no firing.
template <class T>
[[gnu::always_inline]] inline Firing fire_switch(T d, T p, bool propagate, T& out_true,
                                                 T& out_false) {
  if (d.is_live() && p.is_live()) {  // the common case first
    const bool taken = p.value() != 0;
    (taken ? out_true : out_false) = d;
    (taken ? out_false : out_true) = untaken<T>(propagate);
    return {true, false};
  }
  if (d.is_absent() || p.is_absent()) {
    out_true = out_false = T::absent();
    return {};
  }
  if (!p.is_live() || d.is_dead()) {
    out_true = out_false = untaken<T>(propagate);
    return {true, propagate};
  }
  const bool taken = p.value() != 0;
  (taken ? out_true : out_false) = d;
  (taken ? out_false : out_true) = untaken<T>(propagate);
  return {true, false};
}

// Which input a Merge (t, e, p) sends (Sec. 3.2, extended by the predicate: docs/graph.md,
// "Lowering"): nothing without a predicate; the predicate itself when it is not live (a bottom
// predicate is the conditional's undefinedness, a dead one the Merge's deadness); else t when
// it is true and e when it is false. The other input is dead (Deadness::Propagate) or never
// comes (Deadness::Elide): the Merge does not read it.
enum class MergeChoice : std::uint8_t { None, Predicate, Then, Else };

template <class T>
[[gnu::always_inline]] inline MergeChoice merge_choice(const T& p) {
  if (p.is_absent()) return MergeChoice::None;
  if (!p.is_live()) return MergeChoice::Predicate;
  return p.value() != 0 ? MergeChoice::Then : MergeChoice::Else;
}

// Merge (t, e, p) -> v: the input merge_choice(p) names.
template <class T>
[[gnu::always_inline]] inline Firing fire_merge(const T& t, const T& e, T p, T& out) {
  switch (merge_choice(p)) {
    case MergeChoice::None:
      out = T::absent();
      return {};
    case MergeChoice::Predicate:
      out = p;
      return {true, p.is_dead()};
    case MergeChoice::Then:
      out = t;
      return {true, false};
    case MergeChoice::Else:
      out = e;
      return {true, false};
  }
  return {};
}

// Where a Merge's matching is decided (docs/graph.md, "Deadness"): how many of its three
// inputs the arrival of its predicate p settles. With dead tokens propagated only p itself
// (the untaken input will arrive dead); with deadness elided a live p also settles the input
// it does not select (which never comes), and a predicate that is not live settles both
// value inputs (neither is read). No token: none.
template <class T>
[[gnu::always_inline]] inline std::int32_t merge_settled_by_predicate(const T& p, bool propagate) {
  if (p.is_absent()) return 0;
  if (propagate) return 1;
  return p.is_live() ? 2 : 3;
}

// InputMerge, Return, Exit (Secs. 4.2, 5.2.1): the token that arrives is passed on (an
// activation has one call site, so an InputMerge receives one token; a Return receives its
// callee's output, or its Call's dead or bottom token by the control edge of Sec. 5.4.6).
template <class T>
[[gnu::always_inline]] inline Firing fire_forward(const T& t) {
  internal_check(!t.is_absent(), "a forwarding node fired without a token");
  return {true, t.is_dead()};
}

// The strict nodes (Const, BoolConst, Add, Op, Pred, Sync, Gate, Rd, Save, Load; Sec. 3.2 and
// call by value): no firing if an input is absent, a dead token if one is dead, else the
// earliest bottom (in evaluation order: token.hpp's Bottom) if one is bottom, else the node's
// value on its live inputs (node_value.hpp). `in(i)` is input i, `earlier(a, b)` the earlier of
// two bottom tokens; `bottom` receives the earliest bottom.
enum class Strictness : std::uint8_t { Absent, Dead, Bottom, Live };

template <class T, class In, class Earlier>
[[gnu::always_inline]] inline Strictness strict_inputs(std::uint32_t n, In in, Earlier earlier,
                                                       T& bottom) {
  bool dead = false, has_bottom = false;
  for (std::uint32_t i = 0; i < n; ++i) {
    const T& t = in(i);
    if (t.is_absent()) return Strictness::Absent;
    if (t.is_dead()) dead = true;
    if (t.is_bottom()) {
      bottom = has_bottom ? earlier(bottom, t) : t;
      has_bottom = true;
    }
  }
  if (dead) return Strictness::Dead;
  return has_bottom ? Strictness::Bottom : Strictness::Live;
}

// The strict rule's firing when its inputs are not all live (what it counts).
[[gnu::always_inline]] inline Firing strict_firing(Strictness s) {
  return {s != Strictness::Absent, s == Strictness::Dead};
}

// Gate (v, c) -> v and Sync (c_1..c_n) -> c: strict (above); on live inputs the Gate passes v,
// the Sync a live 0 (node_value.hpp).

// Call_i, every Call of site i at once (arguments, then control; Sec. 5.2.1): the callee is
// entered with tag t/i only when every Call is live and the call is admitted (fuel, frames:
// the executor's budgets). A call site on the untaken side (absent control) does not fire. A
// dead control Call sends dead tokens to the site's Returns (the control edge Call_i ->
// Return_i of Sec. 5.4.6: dead tokens never enter a body). A call is strict in its argument, as
// in call by value: a bottom argument goes to the Returns too, without entering the callee
// (which may not use it, and could run forever where the sequential evaluators stop). The
// Calls of a site lie on the same side of every Switch, so they agree on deadness.
enum class CallChoice : std::uint8_t { None, Dead, Bottom, Enter };

template <class T, class In, class Earlier>
inline CallChoice call_site_choice(std::uint32_t nin, In in, Earlier earlier, T& bottom) {
  const T& control = in(nin - 1);
  bool same = true;
  for (std::uint32_t j = 0; j + 1 < nin; ++j)
    same = same && in(j).is_absent() == control.is_absent() && in(j).is_dead() == control.is_dead();
  internal_check(same, "the Calls of a call site disagree on deadness");
  if (control.is_absent()) return CallChoice::None;
  if (control.is_dead()) return CallChoice::Dead;
  bool has_bottom = false;
  for (std::uint32_t j = 0; j < nin; ++j) {
    const T& t = in(j);
    if (!t.is_bottom()) continue;
    bottom = has_bottom ? earlier(bottom, t) : t;
    has_bottom = true;
  }
  return has_bottom ? CallChoice::Bottom : CallChoice::Enter;
}

// What a call site's firing counts: one firing per Call (a site that does not fire: none), and
// as many dead ones when they are dead.
[[gnu::always_inline]] inline Firing call_site_firing(CallChoice c) {
  return {c != CallChoice::None, c == CallChoice::Dead};
}

}  // namespace adlang::graph::rules
