// The operator table (DESIGN.md Sec. 5): the language's signature.
//
// Each operator op : T -> U has a type, an open domain on which it is smooth, and a reverse
// derivative op_r : T * U -> T given as a trace-term template over other table operators
// (lang/reverse_template.hpp), so that the table is closed under reverse derivatives and nested
// differentiation never leaves it. Evaluation of operators lives in semantics/, not here.
//
//   op          type                          domain   op_r(<x, w>)
//   neg         real -> real                  all      neg(w)
//   add         real * real -> real           all      (w, w)
//   sub         real * real -> real           all      (w, neg(w))
//   mul         real * real -> real           all      (mul(w, b), mul(w, a))       x = (a, b)
//   div         real * real -> real           b != 0   (div(w, b), neg(div(mul(w, a), mul(b, b))))
//   sin         real -> real                  all      mul(w, cos(x))
//   cos         real -> real                  all      neg(mul(w, sin(x)))
//   exp         real -> real                  all      mul(w, exp(x))
//   log         real -> real                  x > 0    div(w, x)
//   sqrt        real -> real                  x > 0    div(w, mul(2, sqrt(x)))
//   tanh        real -> real                  all      mul(w, sub(1, mul(tanh(x), tanh(x))))
//   sigmoid     real -> real                  all      mul(w, mul(sigmoid(x), sub(1, sigmoid(x))))
//   floor       real -> real                  x not    0
//                                             integer
//   dot_n       real^n * real^n -> real       all      (scale_n(w, v), scale_n(w, u))  x = (u, v)
//   scale_n     real * real^n -> real^n       all      (dot_n(v, w), scale_n(c, w))    x = (c, v)
//
// sqrt and log are undefined at 0 although their values extend there: the paper's functions
// are smooth on open domains, and neither is differentiable at 0. floor is smooth (locally
// constant) off the integers, its open domain; at an integer it jumps, so it is undefined there
// with the paper's semantics. `--predicates total` (semantics/op_eval.hpp) makes it total, as
// TensorFlow's floor is: floor(n) = n with derivative 0.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/type.hpp"

namespace adlang {

enum class OpKind {
  Neg,
  Add,
  Sub,
  Mul,
  Div,
  Sin,
  Cos,
  Exp,
  Log,
  Sqrt,
  Tanh,
  Sigmoid,
  Floor,
  Dot,
  Scale
};

// The open domain of definition of an operator.
enum class OpDomain {
  All,                 // R^|T|
  PositiveArgument,    // x > 0
  NonzeroDenominator,  // (a, b) with b != 0
  OffIntegers,         // x not an integer (a discontinuous operator: total under
                       // --predicates total)
};

// The largest vector size accepted in dot_n / scale_n (a guard against absurd types).
inline constexpr unsigned kMaxVectorOpSize = 1u << 16;

class Op {
 public:
  // Looks up an operator by its concrete-syntax name: "sin", "dot_3", "scale_2", ...
  static std::optional<Op> lookup(std::string_view name);
  // The operator of kind k; `n` is the vector size for Dot and Scale (n >= 1), ignored otherwise.
  static Op make(OpKind k, unsigned n = 0);
  // Every operator with vector size at most `max_n`: the table a test walks.
  static std::vector<Op> all(unsigned max_n);

  OpKind kind() const { return kind_; }
  unsigned vector_size() const { return n_; }
  std::string name() const;
  Type arg_type() const;
  Type result_type() const;
  OpDomain domain() const;
  // The domain in words, for error messages: "its argument must be > 0".
  std::string domain_text() const;
  // True for + - * / style binary operators written infix in the concrete syntax.
  const char* infix_symbol() const;
  // Whether the operator belongs to the polynomial fragment (exact rational evaluation).
  bool is_polynomial() const;

  bool operator==(const Op&) const = default;

 private:
  Op(OpKind k, unsigned n) : kind_(k), n_(n) {}
  OpKind kind_;
  unsigned n_;
};

// Predicate symbols (paper Sec. 2: pred : T, here all on real * real).
enum class PredKind { Lt, Gt, Le, Ge, Eq };

class Pred {
 public:
  static std::optional<Pred> lookup(std::string_view name);  // lt gt le ge eq
  static Pred make(PredKind k) { return Pred(k); }
  static std::vector<Pred> all();
  PredKind kind() const { return kind_; }
  std::string name() const;
  const char* symbol() const;  // < > <= >= =
  Type arg_type() const { return Type::pair(Type::real(), Type::real()); }
  bool operator==(const Pred&) const = default;

 private:
  explicit Pred(PredKind k) : kind_(k) {}
  PredKind kind_;
};

}  // namespace adlang
