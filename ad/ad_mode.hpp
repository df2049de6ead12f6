// The three differentiations of adlang (ad/), and how a run chooses one (EvalOptions::ad,
// `--ad`). Each computes the value of an rd redex W.rd_V(x:T. N), Fig. 2's rule:
//
//   Paper   Fig. 6's R, literally (ad/reverse_deriv.hpp): symbolic evaluation of N to the trace
//           C, then W.R_V(x:T. C), a trace term, evaluated. The reference; exponential in the
//           let depth of C and under nesting.
//   Linear  the linear R (ad/linear_reverse_deriv.hpp): the same, with an R whose output is
//           linear in C (reverse accumulation over C's lets, zero propagation).
//   Tape    the run-time tape (semantics/compiled/tape.hpp): reverse accumulation over the
//   operations the
//           compiled evaluator executes for N, without building C or R's output; the same
//           arithmetic as the linear R's output in the same order, so the same numbers to the
//           bit. It applies where N differentiates no further and everything is defined; any
//           other rd redex (a nested rd, an undefined point, or the reference evaluator) takes
//           the linear R, which reports what is undefined and where.
#pragma once

namespace adlang {

enum class AdMode { Paper, Linear, Tape };

}  // namespace adlang
