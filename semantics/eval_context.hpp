// What one run of the evaluators shares: options, budgets, the fresh-name supply, and the
// implementation of R used to differentiate traces.
#pragma once

#include <cstdint>
#include <optional>

#include "ad/ad_mode.hpp"
#include "ad/linear_reverse_deriv.hpp"
#include "ad/reverse_deriv.hpp"
#include "lang/name.hpp"
#include "lang/source.hpp"
#include "lang/term.hpp"
#include "semantics/op_eval.hpp"

namespace adlang {

class DerivationRecorder;

// An implementation of W.R_V(x:T. C) (ad/). The default is the paper's Fig. 6.
using ReverseDerivFn = Term (*)(const Term& w, const Term& v, Name x, Type t, const Term& c,
                                NameSupply& names, std::uint64_t max_steps,
                                ReverseDerivStats* stats);

// Which ordinary evaluator runs programs and the traces R produces (semantics/compiled_eval.hpp).
enum class Evaluator {
  Reference,  // ordinary_eval: a walk over the term tree, rule by rule (Figs. 2-3)
  Compiled,   // compiled_eval: the same semantics on resolved, flat code (falls back to the
              // reference under --unfold, the limited language of Fig. 8)
};

struct EvalOptions {
  PredicateMode predicates = PredicateMode::Strict;
  Evaluator evaluator = Evaluator::Reference;
  // Function calls allowed in one run (both evaluators together); running out is reported.
  std::uint64_t fuel = 10'000'000;
  // The limited-recursion language of Fig. 8: every letrec is letrec_n with this n.
  std::optional<std::uint64_t> unfold;
  // Clause applications of R allowed in one run.
  std::uint64_t max_derivative_steps = 1'000'000;
  // Trace-term nodes symbolic evaluation may build in one run (memory guard).
  std::uint64_t max_trace_nodes = 30'000'000;
  // rd redexes symbolically evaluated inside one another (each nested rd traces its body and
  // differentiates the trace: a recursion through a derivative nests without end). The
  // denotational evaluator's tags allow 63 levels; the same order of magnitude here.
  std::uint64_t max_rd_nesting = 64;
  // Trace-term nodes symbolic evaluation may record for one outermost rd redex (its body, with
  // the rds nested in it): the trace it differentiates, all in memory until R has run. The
  // default keeps one such trace within about 1 GB and 10 s (docs/robustness.md, "The trace of
  // one derivative"): a recursion inside a derivative that does not end is reported there.
  std::uint64_t max_rd_trace_nodes = 250'000;
  // Which differentiation computes rd redexes (ad/ad_mode.hpp), and the R it applies to traces:
  // Fig. 6's for Paper, the linear R for Linear and Tape (use_ad() keeps the two consistent;
  // the checker's tests substitute deliberately broken Rs here).
  AdMode ad = AdMode::Paper;
  ReverseDerivFn reverse_deriv = &adlang::reverse_deriv;
};

// Selects the differentiation `ad` and its R.
inline void use_ad(EvalOptions& o, AdMode ad) {
  o.ad = ad;
  o.reverse_deriv = ad == AdMode::Paper ? &adlang::reverse_deriv : &adlang::linear_reverse_deriv;
}

struct EvalContext {
  explicit EvalContext(EvalOptions o, NameSupply& n) : options(o), names(n), fuel_left(o.fuel) {}
  EvalOptions options;
  NameSupply& names;
  std::uint64_t fuel_left;
  std::uint64_t calls = 0;        // function calls made
  ReverseDerivStats derivative;   // R steps used
  std::uint64_t trace_nodes = 0;  // trace bindings and redexes recorded by symbolic evaluation
  std::uint64_t rd_depth = 0;     // rd redexes being symbolically evaluated, one inside another
  // trace_nodes when the outermost of them began, and where it is (--max-rd-trace).
  std::uint64_t rd_trace_start = 0;
  SourceLoc rd_trace_loc;
  // When set, the evaluators report each judgement they establish (derivation_recorder.hpp);
  // symbolic evaluation then evaluates traces with the reference evaluator.
  DerivationRecorder* recorder = nullptr;

  std::uint64_t derivative_steps_left() const {
    std::uint64_t used = derivative.clause_steps;
    return used >= options.max_derivative_steps ? 0 : options.max_derivative_steps - used;
  }
};

}  // namespace adlang
