// The paper's theorems as executable properties (DESIGN.md Sec. 7), each with its own name so
// `adlang check --property NAME` runs one:
//
//   type-safety          Prop. 3.6 (M => V gives |- V : T; M ~> C gives Gamma |- C : T) and
//                        Prop. 3.3 (W.R_V(x:T. C) : T)
//   interpolation        Prop. 3.5: M => V iff (M ~> C and C => V)
//   correctness          Thm. 6.2 (1): M => V implies [[M]] rho = V
//   correctness-near     Thm. 6.2 (2): M ~> C implies [[M]] = [[C]] at rho and near rho
//   r-derivative         Thm. 6.1 / Cor. 6.3: [[W.R_V(x. C)]] = [[W.rd_V(x. C)]] = [[W.rd_V(x. M)]]
//   completeness         Thm. 6.7 via Lemmas 6.5-6.6: in letrec_n, M terminates iff [[M^(n)]]
//                        is defined, with equal values; and then M terminates in the main language
//   forward-via-reverse  eq. 6: U.fd_V(x. M) (nested rd) = the directional derivative by duals
//   finite-differences   a third witness: central differences in 50-digit arithmetic agree
//                        with the operational and the denotational rd
//   exact-polynomial     on the polynomial fragment, operational = denotational exactly
//                        (rationals)
//   linear-r-agrees      issue 5: the linear R (ad/linear_reverse_deriv.hpp) and Fig. 6's R
//                        give the same value on the trace of M, where Fig. 6's is feasible
//   linear-r-size        issue 5: |W.R_V(x. C)| <= k (|C| + |V| + |W|), k = 24, for the linear R
//   linear-r-nested      issue 5: U.fd_V(x. M) through the linear R (rd nested in rd) agrees
//                        with central differences of M in 50-digit arithmetic
//
// `--ad linear` (CheckConfig::linear_r) runs every property with the linear R in place of
// Fig. 6's, in symbolic evaluation and wherever a property applies R itself.
//
// A property looks at one program and says pass, fail (with the differing results), both
// undefined (the same bottom on both sides), or discard (a resource limit such as fuel or the
// range of double was hit, so the program says nothing about the theorem). A failure in
// floating point is confirmed in the next higher precision before it counts, so rounding is
// never reported as a counterexample.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ad/reverse_deriv.hpp"
#include "checker/program.hpp"
#include "checker/program_generator.hpp"
#include "semantics/eval_context.hpp"
#include "semantics/symbolic_eval.hpp"

namespace adlang {

// The default largest program size of `adlang check` (keeps nested R cheap; DESIGN.md Sec. 6).
inline constexpr unsigned kDefaultMaxSize = 10;

struct PropertyInfo {
  const char* name;
  const char* paper;    // where the paper states it
  const char* summary;  // one line
};

// Every property, in the order of the summary table.
const std::vector<PropertyInfo>& all_properties();

namespace checker {

// The implementations a property exercises. Production code uses production_implementations();
// the test suite substitutes deliberately broken variants (tests/checker/mutants) to show that
// the properties catch them.
template <class S>
struct Evaluators {
  Value<S> (*ordinary)(const Term&, ValueEnv<S>&, const FunFrame*, EvalContext&);
  Traced<S> (*symbolic)(const Term&, ValueEnv<S>&, const FunFrame*, EvalContext&);
  Value<S> (*denote)(const Term&, const DenEnv<S>&, const DenotationOptions&, DenotationStats*);
  Value<S> (*denote_forward)(const Term&, Name, const Value<S>&, const Value<S>&, const DenEnv<S>&,
                             const DenotationOptions&, DenotationStats*);
};

struct Implementations {
  Evaluators<double> d;
  Evaluators<Mpfr50> m50;
  Evaluators<Mpfr100> m100;
  Evaluators<Rational> q;
  ReverseDerivFn reverse_deriv;         // Fig. 6 (ad/reverse_deriv.hpp)
  ReverseDerivFn linear_reverse_deriv;  // reverse accumulation (ad/linear_reverse_deriv.hpp)

  template <class S>
  const Evaluators<S>& get() const;
};

Implementations production_implementations();

struct CheckConfig {
  Precision precision = Precision::Double;
  PredicateMode predicates = PredicateMode::Strict;  // both sides, as --predicates says
  // The denotational side's predicates; equal to `predicates` except in tests that model an
  // evaluator whose predicates differ from the others'.
  PredicateMode den_predicates = PredicateMode::Strict;
  // Budgets per evaluation: exceeding one discards the program (it says nothing either way).
  std::uint64_t fuel = 2000;
  std::uint64_t max_trace_nodes = 20000;
  std::uint64_t max_derivative_steps = 2000;
  std::uint64_t max_approximant = 64;
  // The linear R's step budget (a memory guard: its work is linear in the trace).
  std::uint64_t max_linear_derivative_steps = 2000000;
  // Every property with the linear R in place of Fig. 6's (`adlang check --ad linear`).
  bool linear_r = false;
  Implementations impl = production_implementations();
};

enum class Verdict { Pass, Fail, BothUndefined, Discard };

struct Outcome {
  Verdict verdict = Verdict::Pass;
  std::string detail;  // for Fail: what differed; for Discard: why
};

// The generator settings a property uses for programs of size at most `max_size`.
GenConfig generator_config(const PropertyInfo& p, unsigned max_size);

// Runs property `p` on `program` (extra random choices, such as the cotangent, come from
// `case_seed`). An InternalError in any evaluator is a failure. Deep programs need a large
// stack: run_checks() provides one (lang/stack.hpp); running out is a discard, never a crash.
Outcome run_property(const PropertyInfo& p, const Program& program, const CheckConfig& config,
                     std::uint64_t case_seed);

}  // namespace checker
}  // namespace adlang
