#include "mutants.hpp"

namespace adlang {

// The mutants' renamed entry points.
#define ADLANG_DECLARE_R(NAME)                                                                  \
  Term reverse_deriv_mutant_##NAME(const Term& w, const Term& v, Name x, Type t, const Term& c, \
                                   NameSupply& names, std::uint64_t max_steps,                  \
                                   ReverseDerivStats* stats);
ADLANG_DECLARE_R(r_let_summand)
ADLANG_DECLARE_R(r_snd_zero)
ADLANG_DECLARE_R(r_fst_paper_text)
Term linear_reverse_deriv_mutant_linear_add_one_side(const Term& w, const Term& v, Name x, Type t,
                                                     const Term& c, NameSupply& names,
                                                     std::uint64_t max_steps,
                                                     ReverseDerivStats* stats);
template <class S>
Traced<S> symbolic_eval_mutant_symbolic_total(const Term&, ValueEnv<S>&, const FunFrame*,
                                              EvalContext&);
template <class S>
Value<S> ordinary_eval_mutant_closure_dynamic(const Term&, ValueEnv<S>&, const FunFrame*,
                                              EvalContext&);
template <class S>
Value<S> denote_mutant_den_jw(const Term&, const DenEnv<S>&, const DenotationOptions&,
                              DenotationStats*);
template <class S>
Value<S> denote_mutant_den_one_tag(const Term&, const DenEnv<S>&, const DenotationOptions&,
                                   DenotationStats*);
template <class S>
Value<S> denote_forward_mutant_den_one_tag(const Term&, Name, const Value<S>&, const Value<S>&,
                                           const DenEnv<S>&, const DenotationOptions&,
                                           DenotationStats*);
template <class S>
Value<S> compiled_eval_mutant_compiled_sub_swapped(const Term&, const ValueEnv<S>&, EvalContext&);
template <class S>
Value<S> compiled_eval_mutant_tape_mul_adjoint(const Term&, const ValueEnv<S>&, EvalContext&);

namespace graph {
Graph lower_to_graph_mutant_graph_predicate_swapped(const Term&,
                                                    const std::vector<std::pair<Name, Type>>&,
                                                    RdLowering);
Graph lower_to_graph_mutant_graph_fanout_unsummed(const Term&,
                                                  const std::vector<std::pair<Name, Type>>&,
                                                  RdLowering);
Value<double> run_graph_mutant_graph_store_stack(const Graph&, const std::vector<Value<double>>&,
                                                 const GraphOptions&, NameSupply&, GraphStats*);
Value<double> run_graph_mutant_graph_merge_bottom_taken(const Graph&,
                                                        const std::vector<Value<double>>&,
                                                        const GraphOptions&, NameSupply&,
                                                        GraphStats*);
}  // namespace graph

namespace mutants {

// Every precision's evaluator of one kind replaced by the mutant's.
#define ADLANG_ALL_PRECISIONS(c, member, fn) \
  do {                                       \
    (c).impl.d.member = &fn<double>;         \
    (c).impl.m50.member = &fn<Mpfr50>;       \
    (c).impl.m100.member = &fn<Mpfr100>;     \
    (c).impl.q.member = &fn<Rational>;       \
  } while (false)

const std::vector<std::string> kMutants = {"r_let_summand",
                                           "r_snd_zero",
                                           "r_fst_paper_text",
                                           "symbolic_total",
                                           "denotational_total",
                                           "closure_dynamic",
                                           "den_jw",
                                           "den_one_tag",
                                           "linear_add_one_side",
                                           "compiled_sub_swapped",
                                           "tape_mul_adjoint",
                                           "graph_predicate_swapped",
                                           "graph_fanout_unsummed",
                                           "graph_store_stack",
                                           "graph_merge_bottom_taken"};

// The checker's configuration with the named mutant in place of the production code.
checker::CheckConfig config(const std::string& name) {
  checker::CheckConfig c;
  if (name == "r_let_summand") c.impl.reverse_deriv = &reverse_deriv_mutant_r_let_summand;
  if (name == "r_snd_zero") c.impl.reverse_deriv = &reverse_deriv_mutant_r_snd_zero;
  if (name == "r_fst_paper_text") c.impl.reverse_deriv = &reverse_deriv_mutant_r_fst_paper_text;
  if (name == "linear_add_one_side")
    c.impl.linear_reverse_deriv = &linear_reverse_deriv_mutant_linear_add_one_side;
  if (name == "symbolic_total")
    ADLANG_ALL_PRECISIONS(c, symbolic, symbolic_eval_mutant_symbolic_total);
  // Configuration, not code: the denotation's predicates differ from the other evaluators'.
  if (name == "denotational_total") c.den_predicates = PredicateMode::Total;
  if (name == "closure_dynamic")
    ADLANG_ALL_PRECISIONS(c, ordinary, ordinary_eval_mutant_closure_dynamic);
  if (name == "den_jw") ADLANG_ALL_PRECISIONS(c, denote, denote_mutant_den_jw);
  if (name == "den_one_tag") {
    ADLANG_ALL_PRECISIONS(c, denote, denote_mutant_den_one_tag);
    ADLANG_ALL_PRECISIONS(c, denote_forward, denote_forward_mutant_den_one_tag);
  }
  if (name == "compiled_sub_swapped")
    ADLANG_ALL_PRECISIONS(c, compiled, compiled_eval_mutant_compiled_sub_swapped);
  if (name == "tape_mul_adjoint")
    ADLANG_ALL_PRECISIONS(c, compiled, compiled_eval_mutant_tape_mul_adjoint);
  if (name == "graph_predicate_swapped")
    c.impl.lower_graph = &graph::lower_to_graph_mutant_graph_predicate_swapped;
  if (name == "graph_fanout_unsummed")
    c.impl.lower_graph = &graph::lower_to_graph_mutant_graph_fanout_unsummed;
  if (name == "graph_store_stack") c.impl.run_graph = &graph::run_graph_mutant_graph_store_stack;
  if (name == "graph_merge_bottom_taken")
    c.impl.run_graph = &graph::run_graph_mutant_graph_merge_bottom_taken;
  return c;
}

const std::vector<std::string>& names() {
  return kMutants;
}

}  // namespace mutants
}  // namespace adlang
