// Evaluation of operators and predicates: the paper's ev(op, V) and bev(pred, V) (Sec. 3),
// which are also [[op]] and [[pred]] of the denotational semantics (Sec. 5, eqs. 11-12).
//
// Generic over the scalar type: anything with + - * /, comparisons, sin cos exp log sqrt tanh
// found by argument-dependent lookup, and a ScalarTraits specialisation (in_range, to_text,
// exact). Operators are undefined outside their open domain (lang/op.hpp); a result outside
// the precision's range (exp(1000) in double) is undefined too, with a hint.
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "lang/op.hpp"
#include "lang/source.hpp"
#include "semantics/scalar.hpp"
#include "semantics/undefined.hpp"
#include "support/setting_hint.hpp"

namespace adlang {

// `--predicates`: how the language treats the points where a discontinuous primitive jumps.
// The paper's primitives are smooth on open domains, so a predicate is undefined on its
// boundary (where its two sides are equal) and floor at the integers. Total makes both total,
// as mainstream frameworks are: conventional comparisons, and TensorFlow's floor (floor(n) = n,
// derivative 0 everywhere). Operators whose value does not exist at the point (log 0, 1 / 0)
// stay undefined in both modes.
enum class PredicateMode {
  Strict,  // the paper's: undefined where the two sides are equal (open pre-images)
  Total,   // the conventional comparisons of mainstream frameworks
};

namespace op_eval_detail {

template <class S>
[[noreturn]] void out_of_domain(Op op, const S& arg, SourceLoc loc) {
  std::string shown = ScalarTraits<S>::to_text(arg);
  std::string what = op.kind() == OpKind::Div ? "division by zero"
                                              : op.name() + "(x) is undefined at x = " + shown;
  std::vector<std::string> notes{op.domain_text()};
  if constexpr (std::is_same_v<S, double>) {
    if (arg == 0) {
      notes.push_back(
          "if x is a nonzero number that underflowed to 0 (below about 5e-324 in double "
          "precision), rerun with " +
          setting_hint(Setting::Precision, "50") + " to compute it with 50-digit floats");
    }
  }
  throw Undefined(UndefinedKind::OpDomain, loc, what, std::move(notes));
}

template <class S>
void check_range(Op op, const S* out, std::size_t n, SourceLoc loc) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!ScalarTraits<S>::in_range(out[i])) {
      throw Undefined(UndefinedKind::Range, loc,
                      "the result of " + op.name() + " is outside the range of " +
                          std::string(to_string(ScalarTraits<S>::precision)) + " precision",
                      {"rerun with " + setting_hint(Setting::Precision, "50") +
                       " to compute it with 50-digit floats"});
    }
  }
}

}  // namespace op_eval_detail

namespace op_eval_detail {

template <class S>
using Primal = void (*)(const S*, S*, unsigned);

// An operator's primal at scalar type S; none for an operator outside the polynomial fragment
// when S is exact (rationals have no sin).
template <class S, class O>
constexpr Primal<S> primal_at() {
  if constexpr (ScalarTraits<S>::exact && !O::definition.polynomial) {
    return nullptr;
  } else {
    return &O::template primal<S>;
  }
}

template <class S, class... O>
constexpr std::array<Primal<S>, sizeof...(O)> primals_of(OperatorList<O...>) {
  return {primal_at<S, O>()...};
}

// The primals of the table (lang/operators.hpp), by OpKind.
template <class S>
inline constexpr auto kPrimals = primals_of<S>(Operators{});

// Whether `in` is outside the open domain `domain`, where an operator is undefined.
template <class S>
bool outside_domain(OpDomain domain, const S* in, PredicateMode mode) {
  switch (domain) {
    case OpDomain::All:
      return false;
    case OpDomain::PositiveArgument:
      return !(in[0] > 0);
    case OpDomain::NonzeroDenominator:
      return in[1] == 0;
    case OpDomain::OffIntegers:
      // An integer is where the operator jumps: outside its open domain unless total.
      if constexpr (ScalarTraits<S>::exact) {
        return false;  // not reached: exact scalars have only the polynomial fragment
      } else {
        using std::floor;
        return mode == PredicateMode::Strict && floor(in[0]) == in[0];
      }
  }
  return false;
}

}  // namespace op_eval_detail

// out = ev(op, in); `in` has op.arg_size() scalars, `out` op.result_size(): the operator's
// primal (lang/operators.hpp), undefined outside its open domain and where the result is out of
// the precision's range. `mode` decides whether a discontinuous operator (floor) is defined
// where it jumps.
template <class S>
void eval_op(Op op, const S* in, S* out, SourceLoc loc, PredicateMode mode) {
  const op_eval_detail::Primal<S> primal =
      op_eval_detail::kPrimals<S>[static_cast<std::size_t>(op.kind())];
  if constexpr (ScalarTraits<S>::exact) {
    if (primal == nullptr) {
      throw Undefined(UndefinedKind::Unsupported, loc,
                      op.name() +
                          " is not in the polynomial fragment, which exact rationals "
                          "compute",
                      {"exact mode supports + - * / " + polynomial_operator_names() + "; use " +
                       setting_hint(Setting::Precision, "double, 50 or 100")});
    }
  }
  if (op_eval_detail::outside_domain(op.domain(), in, mode)) {
    op_eval_detail::out_of_domain(op, op.domain() == OpDomain::NonzeroDenominator ? in[1] : in[0],
                                  loc);
  }
  primal(in, out, op.vector_size());
  op_eval_detail::check_range(op, out, op.result_size(), loc);
}

// bev(pred, <a, b>): true, false, or nullopt (undefined). Strict predicates are undefined
// where a = b, so <= and >= agree with < and >, and = is never true (docs/design.md Sec. 4).
// (Inlined: gcc called it from the graph executor's loop, a call per predicate.)
template <class S>
[[gnu::always_inline]] inline std::optional<bool> eval_pred(Pred p, const S& a, const S& b,
                                                            PredicateMode mode) {
  if (mode == PredicateMode::Strict && a == b) return std::nullopt;
  switch (p.kind()) {
    case PredKind::Lt:
      return a < b;
    case PredKind::Gt:
      return a > b;
    case PredKind::Le:
      return a <= b;
    case PredKind::Ge:
      return a >= b;
    case PredKind::Eq:
      return a == b;
  }
  return std::nullopt;
}

// The reason a strict predicate is undefined at a = b, for diagnostics.
template <class S>
Undefined predicate_undefined(Pred p, const S& a, SourceLoc loc) {
  std::string v = ScalarTraits<S>::to_text(a);
  return Undefined(
      UndefinedKind::Predicate, loc,
      std::string("the comparison '") + p.symbol() +
          "' is undefined where its two "
          "sides are equal (both are " +
          v + ")",
      {"adlang follows the paper: a predicate must have open pre-images, so every "
       "comparison is undefined on the diagonal; " +
       setting_hint(Setting::Predicates, "total") + " gives the conventional comparisons"});
}

}  // namespace adlang
