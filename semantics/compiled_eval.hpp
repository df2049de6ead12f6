// Ordinary evaluation phi | rho |- M => V (paper Figs. 2-3) by a compiled stack machine: the
// fast evaluator behind `adlang run`. The reference evaluator (ordinary_eval.hpp) walks the term
// tree; this one first resolves the core IR once and then runs flat code:
//
//  - every value has a size known from its type, so the height of the operand stack at each
//    point of a function body is static, and every variable is a slot at a static offset from
//    the frame base (no name lookup at run time);
//  - `let y = P in N` where P is a path (a variable or fst/snd of a path) makes y an alias of
//    the part of the slot P denotes: no copy (the tuple-let desugaring of Sec. 2 is free);
//  - calls are resolved to their FunDef at compile time (functions see no ordinary variables
//    and function environments are lexical); calls in tail position reuse the caller's frame;
//  - literals are converted to the scalar type once;
//  - control frames live on a heap stack, so recursion depth is bounded by memory and fuel,
//    not by the C++ stack (a million nested calls are fine).
//
// The parts: semantics/compiled/instructions.hpp (the instruction set, each with its rule),
// compiler.hpp (the core IR to that code) and machine.hpp (the stack machine, which records
// the run-time tape of semantics/compiled/tape.hpp under an rd redex).
//
// Semantics are exactly the reference's, rule by rule, in the same left-to-right order, with
// the same undefinedness (kind, reason and location), fuel accounting and rd redexes. An rd
// redex is computed as EvalOptions::ad says (ad/ad_mode.hpp): with AdMode::Tape by the run-time
// tape (a trace of the operations this machine executes for the body, and a reverse sweep
// through the operator table's reverse templates) where it applies, otherwise by symbolic
// evaluation and R, as Fig. 2's rule says. tests/semantics/compiled_eval_test.cpp checks
// equality with the reference on random programs. The limited language of Fig. 8 (--unfold)
// counts unfoldings per closure; only the reference evaluator implements it, and evaluate()
// below chooses it then.
#pragma once

#include "lang/term.hpp"
#include "semantics/environment.hpp"
#include "semantics/eval_context.hpp"
#include "semantics/value.hpp"

namespace adlang {

// The value of M under rho and the empty function environment, in the ordinary language
// (cx.options.unfold is not consulted: use evaluate() for programs, and this directly for
// trace terms, which have no letrec). Free variables of M must be bound in rho. Throws
// Undefined like ordinary_eval.
template <class S>
Value<S> compiled_eval(const Term& m, const ValueEnv<S>& rho, EvalContext& cx);

// Ordinary evaluation with the evaluator cx.options.evaluator selects: the compiled one when
// it is Evaluator::Compiled and there is no unfolding bound, else the reference ordinary_eval.
template <class S>
Value<S> evaluate(const Term& m, ValueEnv<S>& rho, EvalContext& cx);

}  // namespace adlang
