#include "semantics/graph/node_value.hpp"

#include <algorithm>

#include "lang/diagnostics.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/op_eval.hpp"
#include "semantics/scalar.hpp"
#include "support/setting_hint.hpp"

namespace adlang::graph {

Undefined sum_out_of_range(SourceLoc loc) {
  return Undefined(UndefinedKind::Range, loc, "the sum is outside the range of double precision",
                   {"rerun with " + setting_hint(Setting::Precision, "50") +
                    " to compute with 50-digit floats"});
}

Value<double> evaluate_rd(const RdProgram& p, const double* in, const EvalOptions& eval,
                          std::uint64_t fuel, std::uint64_t calls_before, NameSupply& names,
                          std::uint64_t& calls) {
  ValueEnv<double> rho;
  std::size_t k = 0;
  for (const auto& [name, type] : p.inputs) {
    Value<double> v;
    for (std::size_t i = 0; i < type.size(); ++i)
      v.push_back(in[k++]);
    rho.push(name, std::move(v));
  }
  EvalOptions eo = eval;
  eo.evaluator = Evaluator::Compiled;
  eo.fuel = fuel;
  EvalContext cx(eo, names);
  cx.calls = calls_before;
  try {
    Value<double> r = evaluate(p.term, rho, cx);
    calls = cx.calls - calls_before;
    return r;
  } catch (...) {
    calls = cx.calls - calls_before;
    throw;
  }
}

std::optional<Undefined> strict_node_value(const Node& n, const double* in, double* out,
                                           const EvalOptions& eval, std::uint64_t fuel,
                                           NameSupply& names, std::uint64_t& calls) {
  switch (n.kind) {
    case NodeKind::Const:
    case NodeKind::BoolConst:
      if (n.error) return *n.error;
      out[0] = n.value;
      return std::nullopt;
    case NodeKind::Add: {
      double s = in[0] + in[1];
      if (!ScalarTraits<double>::in_range(s)) return sum_out_of_range(n.loc);
      out[0] = s;
      return std::nullopt;
    }
    case NodeKind::Op:
      try {
        eval_op<double>(*n.op, in, out, n.loc, eval.predicates);
      } catch (const Undefined& e) {
        return e;
      }
      return std::nullopt;
    case NodeKind::Pred: {
      std::optional<bool> v = eval_pred(*n.pred, in[0], in[1], eval.predicates);
      if (!v) return predicate_undefined(*n.pred, in[0], n.loc);
      out[0] = *v ? 1 : 0;
      return std::nullopt;
    }
    case NodeKind::Sync:
      out[0] = 0;
      return std::nullopt;
    case NodeKind::Gate:
      out[0] = in[0];
      return std::nullopt;
    case NodeKind::Rd: {
      std::uint64_t used = 0;
      Value<double> r;
      try {
        r = evaluate_rd(*n.rd, in, eval, fuel, eval.fuel - std::min(eval.fuel, fuel), names, used);
      } catch (const Undefined& e) {
        calls += used;
        return e;
      }
      calls += used;
      if (r.empty()) {
        out[0] = 0;
        return std::nullopt;
      }
      for (std::size_t j = 0; j < r.size(); ++j)
        out[j] = r[j];
      return std::nullopt;
    }
    case NodeKind::Save:
    case NodeKind::Load:
      throw InternalError(
          "internal error: a partitioned graph with reverse mode (lower it with RdLowering::Host)");
    case NodeKind::Switch:
    case NodeKind::Merge:
    case NodeKind::InputMerge:
    case NodeKind::Call:
    case NodeKind::Return:
    case NodeKind::Exit:
      break;
  }
  throw InternalError("internal error: strict_node_value on a node that is not strict");
}

}  // namespace adlang::graph
