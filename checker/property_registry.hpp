// The properties of `adlang check` (docs/design.md Sec. 7), in one table: each has a name (so
// `adlang check --property NAME` runs one), a family, where the paper states it, what it
// checks, the generator of its programs, and its implementation in each precision. The
// families live in their own files under checker/properties/:
//
//   evaluation   type-safety, interpolation, correctness, correctness-near, completeness
//                (Props. 3.3-3.6, Thms. 6.2 and 6.7: the evaluators against each other)
//   derivative   r-derivative, forward-via-reverse, finite-differences, exact-polynomial
//                (Thm. 6.1 / Cor. 6.3, eq. 6, a finite-difference witness, exactness)
//   linear-r     linear-r-agrees, linear-r-size, linear-r-nested (the linear R against
//                Fig. 6's R, its size bound, nested rd through it)
//   engines      compiled-agrees, tape-agrees (what `adlang run` executes: the compiled
//                evaluator and the run-time tape, against the reference evaluator and R)
//   graph        graph-agrees (the tagged dataflow graph of `adlang run --engine graph`, thesis
//                Secs. 3-5, against the compiled evaluator; double only)
//
// `--ad linear` (CheckConfig::linear_r) runs every property with the linear R in place of
// Fig. 6's, in symbolic evaluation and wherever a property applies R itself.
//
// A property looks at one program and says pass, fail (with the differing results), both
// undefined (the same bottom on both sides), or discard (a resource limit such as fuel or the
// range of double was hit, so the program says nothing about the theorem). A failure in
// floating point is confirmed in the next higher precision before it counts, so rounding is
// never reported as a counterexample (checker/numerics.hpp has the tolerances).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ad/reverse_deriv.hpp"
#include "checker/program.hpp"
#include "checker/program_generator.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/eval_context.hpp"
#include "semantics/graph/executor.hpp"
#include "semantics/graph/lower.hpp"
#include "semantics/symbolic_eval.hpp"

namespace adlang::checker {

// The default largest program size of `adlang check` (keeps nested R cheap; docs/design.md Sec. 6).
inline constexpr unsigned kDefaultMaxSize = 10;

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
  // The compiled evaluator, with the run-time tape (semantics/compiled_eval.hpp).
  Value<S> (*compiled)(const Term&, const ValueEnv<S>&, EvalContext&);
};

struct Implementations {
  Evaluators<double> d;
  Evaluators<Mpfr50> m50;
  Evaluators<Mpfr100> m100;
  Evaluators<Rational> q;
  ReverseDerivFn reverse_deriv;         // Fig. 6 (ad/reverse_deriv.hpp)
  ReverseDerivFn linear_reverse_deriv;  // reverse accumulation (ad/linear_reverse_deriv.hpp)
  // The tagged graph's lowering (with reverse mode) and executor (semantics/graph), as
  // graph-rd-agrees uses them.
  graph::Graph (*lower_graph)(const Term&, const std::vector<std::pair<Name, Type>>&,
                              graph::RdLowering);
  Value<double> (*run_graph)(const graph::Graph&, const std::vector<Value<double>>&,
                             const graph::GraphOptions&, NameSupply&, graph::GraphStats*);

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
  // The graph properties' bound per run of the graph: its time is at most
  // graph_run_seconds + graph_run_ratio times the compiled evaluator's on the same program,
  // and resident memory grows by at most graph_run_memory. Exceeding it is a counterexample
  // (the graph needs far more than the compiled evaluator), not a discarded program.
  double graph_run_seconds = 2;
  double graph_run_ratio = 100;
  std::uint64_t graph_run_memory = std::uint64_t{1} << 30;
  // Every property with the linear R in place of Fig. 6's (`adlang check --ad linear`).
  bool linear_r = false;
  Implementations impl = production_implementations();
};

enum class Verdict { Pass, Fail, BothUndefined, Discard };

struct Outcome {
  Verdict verdict = Verdict::Pass;
  std::string detail;  // for Fail: what differed; for Discard: why
};

template <class S>
class Case;

// A property's check of one program in one precision.
template <class S>
using PropertyCheck = Outcome (*)(Case<S>&);

// The precisions a property runs in.
enum class PrecisionRule {
  AsRequested,      // the precision of --precision
  AtLeast50Digits,  // 50 digits for double and exact (central differences need them)
  ExactOnly,        // exact rationals, whatever --precision says
  DoubleOnly,       // double, whatever --precision says (an engine that computes only in double)
};

struct PropertyInfo {
  const char* name;
  const char* family;   // evaluation, derivative, linear-r, engines, graph
  const char* paper;    // where the paper states it
  const char* summary;  // what it checks, in one line
  PrecisionRule precision;
  // Whether it compares to the bit (engines computing the same operations in the same order):
  // then a failure in floating point is not re-checked in the next precision up, since a
  // difference in rounding is exactly what it looks for.
  bool bitwise;
  // Its generator: the settings of the random programs, given --max-size (0: the default).
  GenConfig (*generator)(unsigned max_size);
  // Its check in each precision (null where PrecisionRule never runs it).
  PropertyCheck<double> check_double;
  PropertyCheck<Mpfr50> check_50;
  PropertyCheck<Mpfr100> check_100;
  PropertyCheck<Rational> check_exact;
};

// Every property, in the order of the summary table: the families in the order above.
const std::vector<PropertyInfo>& all_properties();

// The property called `name`, or null.
const PropertyInfo* find_property(const std::string& name);

// The properties run only when named, added by add_on_request_properties (below), in the order
// they were added.
std::vector<const PropertyInfo*> on_request_properties();

// Every property's name, "a, b, c" (for help texts and the note after an unknown name), the
// default set's first, then those run only when named, marked "(on request)".
std::string property_names();

// The generator settings a property uses for programs of size at most `max_size`.
GenConfig generator_config(const PropertyInfo& p, unsigned max_size);

// The generator settings in words, for `adlang check --list`.
std::string describe(const GenConfig& g);

// Runs property `p` on `program` (extra random choices, such as the cotangent, come from
// `case_seed`). An InternalError in any evaluator is a failure. Deep programs need a large
// stack: run_checks() provides one (support/stack.hpp); running out is a discard, never a crash.
Outcome run_property(const PropertyInfo& p, const Program& program, const CheckConfig& config,
                     std::uint64_t case_seed);

// The families (checker/properties/<family>.cpp), each its entries of the table.
std::vector<PropertyInfo> evaluation_properties();
std::vector<PropertyInfo> derivative_properties();
std::vector<PropertyInfo> linear_r_properties();
std::vector<PropertyInfo> engine_properties();
std::vector<PropertyInfo> graph_properties();
// Properties run only when named (`--property NAME`), not in the default set, that a layer above
// the checker adds before a run (docs/design.md Sec. 2): the export family
// (conform/export_property.hpp) runs Python. Adding the same table twice adds it once.
void add_on_request_properties(const std::vector<PropertyInfo>& table);

// A table entry's checks from a family's property P (a type with `template <class S> static
// Outcome check(Case<S>&)`), for the precisions `rule` runs.
template <class P>
PropertyInfo property_entry(const char* name, const char* family, const char* paper,
                            const char* summary, PrecisionRule rule,
                            GenConfig (*generator)(unsigned)) {
  PropertyInfo p{name,      family,  paper,   summary, rule,   false,
                 generator, nullptr, nullptr, nullptr, nullptr};
  if (rule == PrecisionRule::AsRequested || rule == PrecisionRule::DoubleOnly) {
    p.check_double = &P::template check<double>;
  }
  if (rule == PrecisionRule::DoubleOnly) return p;
  if (rule != PrecisionRule::ExactOnly) {
    p.check_50 = &P::template check<Mpfr50>;
    p.check_100 = &P::template check<Mpfr100>;
  }
  if (rule != PrecisionRule::AtLeast50Digits) p.check_exact = &P::template check<Rational>;
  return p;
}

// The default generator (size at most max_size, or kDefaultMaxSize).
GenConfig default_generator(unsigned max_size);

}  // namespace adlang::checker

namespace adlang {
using checker::all_properties;
using checker::PropertyInfo;
}  // namespace adlang
