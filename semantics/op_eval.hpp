// Evaluation of operators and predicates: the paper's ev(op, V) and bev(pred, V) (Sec. 3),
// which are also [[op]] and [[pred]] of the denotational semantics (Sec. 5, eqs. 11-12).
//
// Generic over the scalar type: anything with + - * /, comparisons, sin cos exp log sqrt tanh
// found by argument-dependent lookup, and a ScalarTraits specialisation (in_range, to_text,
// exact). Operators are undefined outside their open domain (lang/op.hpp); a result outside
// the precision's range (exp(1000) in double) is undefined too, with a hint.
#pragma once

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
          "precision), rerun with --precision 50 to compute it with 50-digit floats");
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
                      {"rerun with --precision 50 to compute it with 50-digit floats"});
    }
  }
}

}  // namespace op_eval_detail

// out = ev(op, in); `in` has op.arg_type().size() scalars, `out` op.result_type().size().
// `mode` decides whether a discontinuous operator (floor) is defined where it jumps.
template <class S>
void eval_op(Op op, const S* in, S* out, SourceLoc loc, PredicateMode mode) {
  using std::cos;
  using std::exp;
  using std::floor;
  using std::log;
  using std::sin;
  using std::sqrt;
  using std::tanh;
  if constexpr (ScalarTraits<S>::exact) {
    if (!op.is_polynomial()) {
      throw Undefined(UndefinedKind::Unsupported, loc,
                      op.name() +
                          " is not in the polynomial fragment, which exact rationals "
                          "compute",
                      {"exact mode supports + - * / neg add sub mul div dot_n scale_n; use "
                       "--precision double, 50 or 100"});
    }
  }
  const unsigned n = op.vector_size();
  switch (op.kind()) {
    case OpKind::Neg:
      out[0] = -in[0];
      break;
    case OpKind::Add:
      out[0] = in[0] + in[1];
      break;
    case OpKind::Sub:
      out[0] = in[0] - in[1];
      break;
    case OpKind::Mul:
      out[0] = in[0] * in[1];
      break;
    case OpKind::Div:
      if (in[1] == 0) op_eval_detail::out_of_domain(op, in[1], loc);
      out[0] = in[0] / in[1];
      break;
    case OpKind::Dot: {  // dot_n(u, v) = sum u_i v_i
      S sum = in[0] * in[n];
      for (unsigned i = 1; i < n; ++i)
        sum = sum + in[i] * in[n + i];
      out[0] = sum;
      break;
    }
    case OpKind::Scale:  // scale_n(c, v) = (c v_1, ..., c v_n)
      for (unsigned i = 0; i < n; ++i)
        out[i] = in[0] * in[1 + i];
      break;
    case OpKind::Sin:
    case OpKind::Cos:
    case OpKind::Exp:
    case OpKind::Log:
    case OpKind::Sqrt:
    case OpKind::Tanh:
    case OpKind::Sigmoid:
    case OpKind::Floor:
      if constexpr (!ScalarTraits<S>::exact) {
        const S& x = in[0];
        switch (op.kind()) {
          case OpKind::Sin:
            out[0] = sin(x);
            break;
          case OpKind::Cos:
            out[0] = cos(x);
            break;
          case OpKind::Exp:
            out[0] = exp(x);
            break;
          case OpKind::Log:
            if (!(x > 0)) op_eval_detail::out_of_domain(op, x, loc);
            out[0] = log(x);
            break;
          case OpKind::Sqrt:
            if (!(x > 0)) op_eval_detail::out_of_domain(op, x, loc);
            out[0] = sqrt(x);
            break;
          case OpKind::Tanh:
            out[0] = tanh(x);
            break;
          case OpKind::Sigmoid:
            // 1 / (1 + e^-x), written so that neither branch overflows.
            if (x >= 0) {
              out[0] = S(1) / (S(1) + exp(-x));
            } else {
              S e = exp(x);
              out[0] = e / (S(1) + e);
            }
            break;
          case OpKind::Floor:
            out[0] = floor(x);
            // An integer is where floor jumps: outside its open domain unless total.
            if (mode == PredicateMode::Strict && out[0] == x)
              op_eval_detail::out_of_domain(op, x, loc);
            break;
          case OpKind::Neg:  // handled above
          case OpKind::Add:
          case OpKind::Sub:
          case OpKind::Mul:
          case OpKind::Div:
          case OpKind::Dot:
          case OpKind::Scale:
            break;
        }
      }
      break;
  }
  op_eval_detail::check_range(op, out, op.result_type().size(), loc);
}

// bev(pred, <a, b>): true, false, or nullopt (undefined). Strict predicates are undefined
// where a = b, so <= and >= agree with < and >, and = is never true (DESIGN.md Sec. 4).
template <class S>
std::optional<bool> eval_pred(Pred p, const S& a, const S& b, PredicateMode mode) {
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
  return Undefined(UndefinedKind::Predicate, loc,
                   std::string("the comparison '") + p.symbol() +
                       "' is undefined where its two "
                       "sides are equal (both are " +
                       v + ")",
                   {"adlang follows the paper: a predicate must have open pre-images, so every "
                    "comparison is undefined on the diagonal; --predicates=total gives the "
                    "conventional comparisons"});
}

}  // namespace adlang
