#include "checker/property_registry.hpp"

#include <algorithm>

#include "checker/property_case.hpp"
#include "checker/term_edit.hpp"
#include "lang/diagnostics.hpp"
#include "semantics/ordinary_eval.hpp"
#include "support/resource_budget.hpp"

namespace adlang::checker {

template <>
const Evaluators<double>& Implementations::get<double>() const {
  return d;
}
template <>
const Evaluators<Mpfr50>& Implementations::get<Mpfr50>() const {
  return m50;
}
template <>
const Evaluators<Mpfr100>& Implementations::get<Mpfr100>() const {
  return m100;
}
template <>
const Evaluators<Rational>& Implementations::get<Rational>() const {
  return q;
}

namespace {

template <class S>
Evaluators<S> production() {
  return Evaluators<S>{&ordinary_eval<S>, &symbolic_eval<S>, &denote<S>, &denote_forward<S>,
                       &compiled_eval<S>};
}

}  // namespace

Implementations production_implementations() {
  return Implementations{production<double>(),   production<Mpfr50>(),
                         production<Mpfr100>(),  production<Rational>(),
                         &adlang::reverse_deriv, &adlang::linear_reverse_deriv,
                         &graph::lower_to_graph, &graph::run_graph};
}

const std::vector<PropertyInfo>& all_properties() {
  static const std::vector<PropertyInfo> table = [] {
    std::vector<PropertyInfo> t;
    for (auto family : {&evaluation_properties, &derivative_properties, &linear_r_properties,
                        &engine_properties, &graph_properties}) {
      std::vector<PropertyInfo> f = family();
      t.insert(t.end(), f.begin(), f.end());
    }
    return t;
  }();
  return table;
}

namespace {

std::vector<const std::vector<PropertyInfo>*>& on_request_tables() {
  static std::vector<const std::vector<PropertyInfo>*> tables;
  return tables;
}

}  // namespace

void add_on_request_properties(const std::vector<PropertyInfo>& table) {
  std::vector<const std::vector<PropertyInfo>*>& tables = on_request_tables();
  if (std::find(tables.begin(), tables.end(), &table) == tables.end()) tables.push_back(&table);
}

std::vector<const PropertyInfo*> on_request_properties() {
  std::vector<const PropertyInfo*> found;
  for (const std::vector<PropertyInfo>* table : on_request_tables())
    for (const PropertyInfo& p : *table)
      found.push_back(&p);
  return found;
}

const PropertyInfo* find_property(const std::string& name) {
  for (const PropertyInfo& p : all_properties())
    if (name == p.name) return &p;
  for (const PropertyInfo* p : on_request_properties())
    if (name == p->name) return p;
  return nullptr;
}

std::string property_names() {
  std::string names;
  for (const PropertyInfo& p : all_properties())
    names += std::string(names.empty() ? "" : ", ") + p.name;
  for (const PropertyInfo* p : on_request_properties())
    names += std::string(names.empty() ? "" : ", ") + p->name + " (on request)";
  return names;
}

GenConfig default_generator(unsigned max_size) {
  GenConfig g;
  g.max_size = max_size == 0 ? kDefaultMaxSize : max_size;
  return g;
}

GenConfig generator_config(const PropertyInfo& p, unsigned max_size) {
  return p.generator(max_size);
}

std::string describe(const GenConfig& g) {
  std::string s = "size <= " + std::to_string(g.max_size);
  s += g.max_rd_depth == 0 ? ", no rd" : ", rd nested <= " + std::to_string(g.max_rd_depth);
  if (g.min_inputs > 0) s += ", >= " + std::to_string(g.min_inputs) + " input";
  if (g.polynomial_only) s += ", polynomial";
  return s;
}

namespace {

template <class S>
Outcome run_in(PropertyCheck<S> check, const Program& program, const CheckConfig& config,
               std::uint64_t case_seed) {
  internal_check(check != nullptr, "a property run in a precision it has no check for");
  Case<S> k(program, config, case_seed);
  try {
    return check(k);
  } catch (const InternalError& e) {
    return fail(std::string("an evaluator failed an internal check: ") + e.what());
  } catch (const StackExhausted& e) {
    return discard(e.what());
  } catch (const BudgetExceeded& e) {
    if (e.kind() == BudgetKind::Time) throw;  // ends the run (adlang check --timeout)
    release_free_memory();
    return discard(e.what());
  }
}

Precision next_up(Precision p) {
  switch (p) {
    case Precision::Double:
      return Precision::Digits50;
    case Precision::Digits50:
    case Precision::Digits100:
      return Precision::Digits100;
    case Precision::Exact:
      return Precision::Exact;
  }
  return Precision::Digits50;
}

Outcome run_at(Precision prec, const PropertyInfo& p, const Program& program,
               const CheckConfig& config, std::uint64_t case_seed) {
  switch (prec) {
    case Precision::Double:
      return run_in<double>(p.check_double, program, config, case_seed);
    case Precision::Digits50:
      return run_in<Mpfr50>(p.check_50, program, config, case_seed);
    case Precision::Digits100:
      return run_in<Mpfr100>(p.check_100, program, config, case_seed);
    case Precision::Exact:
      return run_in<Rational>(p.check_exact, program, config, case_seed);
  }
  return run_in<double>(p.check_double, program, config, case_seed);
}

// The precision property p runs in when --precision says `requested`.
Precision precision_for(const PropertyInfo& p, Precision requested) {
  switch (p.precision) {
    case PrecisionRule::AsRequested:
      return requested;
    case PrecisionRule::AtLeast50Digits:  // central differences need 50+ digits
      return requested == Precision::Double || requested == Precision::Exact ? Precision::Digits50
                                                                             : requested;
    case PrecisionRule::ExactOnly:
      return Precision::Exact;
    case PrecisionRule::DoubleOnly:
      return Precision::Double;
  }
  return requested;
}

}  // namespace

Outcome run_property(const PropertyInfo& p, const Program& program, const CheckConfig& config,
                     std::uint64_t case_seed) {
  Precision prec = precision_for(p, config.precision);
  if (p.precision == PrecisionRule::AsRequested && prec == Precision::Exact &&
      !is_polynomial_term(program.term))
    return discard("exact rationals compute only the polynomial fragment");
  Outcome o = run_at(prec, p, program, config, case_seed);
  if (o.verdict != Verdict::Fail || p.bitwise || prec == Precision::Exact ||
      prec == Precision::Digits100)
    return o;
  // Confirm in the next precision up: rounding is not a counterexample.
  Outcome confirm = run_at(next_up(prec), p, program, config, case_seed);
  if (confirm.verdict == Verdict::Fail) return o;
  return Outcome{confirm.verdict == Verdict::Discard ? Verdict::Discard : Verdict::Pass,
                 "a disagreement in " + std::string(to_string(prec)) +
                     " precision vanished in the next precision up (rounding)"};
}

}  // namespace adlang::checker
