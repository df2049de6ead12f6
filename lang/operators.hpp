// The operator table (docs/design.md Sec. 5), written once: each operator of the language is one
// struct below, which is its whole definition, and every consumer reads it from here.
//
//   definition   its name, type, open domain (where it is smooth), whether exact rationals
//                compute it, its infix symbol, and its reverse derivative op_r(<x, w>) as a
//                trace-term template over table operators, in the notation of the paper's
//                table (parsed once by lang/reverse_template.cpp), and its Python (export);
//   primal       its value ev(op, V) (Sec. 3) for any scalar type S, inside its domain: the
//                mathematical function, which every evaluator applies through
//                semantics/op_eval.hpp (that file checks the domain and the range around it).
//
// The type checker, the printer and parser, the generator of random programs, the messages and
// the Python front end's names read the definition (lang/op.hpp); Fig. 6's R, the linear R and the
// run-time tape instantiate the same reverse template (terms for the two Rs, scalars for the tape:
// semantics/compiled/tape.hpp); the reference, symbolic, compiled and graph evaluators apply the
// same primal. Only the denotational evaluator (semantics/denotational_eval.cpp) defines each
// operator again, with its own derivative, on purpose: it is the independent mathematical semantics
// the others are checked against.
//
// Adding an operator: its kind in OpKind, its struct, its place in Operators (in kind order:
// a static_assert checks), its case in the denotational evaluator (a switch over OpKind
// without a default, so a missing case does not compile), and its row in docs/language.md's
// table; nothing else (docs/design.md Sec. 5). tests/lang/op_table_test.cpp and
// tests/semantics/operator_consumers_test.cpp then check every consumer on it, and
// docs/language.md's table against the definitions.
//
// Reverse templates: w is the cotangent (of the result's type), x the argument; for a pair
// argument a, b (and u, v for dot_n, c, v for scale_n) are its components; dot_n and scale_n
// inside a template have the vector size of the operator being differentiated.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <string_view>
#include <tuple>

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
  Scale,  // the last kind: the count below reads it
};
inline constexpr std::size_t kOpKindCount = static_cast<std::size_t>(OpKind::Scale) + 1;

// The open domain of definition of an operator.
enum class OpDomain {
  All,                 // R^|T|
  PositiveArgument,    // x > 0
  NonzeroDenominator,  // (a, b) with b != 0
  OffIntegers,         // x not an integer (a discontinuous operator: total under
                       // --predicates total)
};

// How an operator's argument or result is made of reals; n is the vector size of a sized
// operator (dot_n, scale_n).
enum class OpShape {
  Real,        // real
  RealPair,    // real * real
  VectorPair,  // real^n * real^n
  RealVector,  // real * real^n
  Vector,      // real^n
};

// The number of reals in a value of the shape.
constexpr std::size_t size_of(OpShape shape, unsigned n) {
  switch (shape) {
    case OpShape::Real:
      return 1;
    case OpShape::RealPair:
      return 2;
    case OpShape::VectorPair:
      return 2 * std::size_t(n);
    case OpShape::RealVector:
      return 1 + std::size_t(n);
    case OpShape::Vector:
      return n;
  }
  return 0;
}

// How an operator is written in an exported Python program (conform/python_export.hpp): an
// expression over its argument, named as in the reverse template (x; a, b for a pair; u, v for
// dot_n; c, v for scale_n), in plain Python (floats, the math module) and in PyTorch (float64
// tensors). The helpers _dot and _scale (vectors as nested tuples) are defined by the export's
// prelude for both.
struct PythonForms {
  std::string_view plain;
  std::string_view torch;
};

struct OpDefinition {
  OpKind kind;
  std::string_view name;  // of a sized operator, the name before "_n"
  OpShape arg = OpShape::Real;
  OpShape result = OpShape::Real;
  OpDomain domain = OpDomain::All;
  bool polynomial = false;      // in the polynomial fragment, which exact rationals compute
  bool sized = false;           // name_n for every vector size n >= 1
  const char* infix = nullptr;  // the infix symbol the printer writes, if any
  // The Python modules whose function `module.name` the Python front end reads as this
  // operator (docs/python.md), separated by spaces: "math tf numpy".
  std::string_view python_modules = {};
  std::string_view reverse;  // op_r(<x, w>), the reverse template
  PythonForms python;        // its exported Python (conform/python_export.hpp)
};

namespace operators {

struct Neg {
  static constexpr OpDefinition definition{.kind = OpKind::Neg,
                                           .name = "neg",
                                           .polynomial = true,
                                           .reverse = "neg(w)",
                                           .python = {"-x", "-x"}};
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    y[0] = -x[0];
  }
};

struct Add {
  static constexpr OpDefinition definition{.kind = OpKind::Add,
                                           .name = "add",
                                           .arg = OpShape::RealPair,
                                           .polynomial = true,
                                           .reverse = "(w, w)",
                                           .python = {"a + b", "a + b"}};
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    y[0] = x[0] + x[1];
  }
};

struct Sub {
  static constexpr OpDefinition definition{.kind = OpKind::Sub,
                                           .name = "sub",
                                           .arg = OpShape::RealPair,
                                           .polynomial = true,
                                           .infix = "-",
                                           .reverse = "(w, neg(w))",
                                           .python = {"a - b", "a - b"}};
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    y[0] = x[0] - x[1];
  }
};

struct Mul {
  static constexpr OpDefinition definition{.kind = OpKind::Mul,
                                           .name = "mul",
                                           .arg = OpShape::RealPair,
                                           .polynomial = true,
                                           .infix = "*",
                                           .reverse = "(mul(w, b), mul(w, a))",
                                           .python = {"a * b", "a * b"}};
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    y[0] = x[0] * x[1];
  }
};

struct Div {
  static constexpr OpDefinition definition{.kind = OpKind::Div,
                                           .name = "div",
                                           .arg = OpShape::RealPair,
                                           .domain = OpDomain::NonzeroDenominator,
                                           .polynomial = true,
                                           .infix = "/",
                                           .reverse = "(div(w, b), neg(div(mul(w, a), mul(b, b))))",
                                           .python = {"a / b", "a / b"}};
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    y[0] = x[0] / x[1];
  }
};

struct Sin {
  static constexpr OpDefinition definition{.kind = OpKind::Sin,
                                           .name = "sin",
                                           .python_modules = "math tf numpy",
                                           .reverse = "mul(w, cos(x))",
                                           .python = {"math.sin(x)", "torch.sin(x)"}};
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    using std::sin;
    y[0] = sin(x[0]);
  }
};

struct Cos {
  static constexpr OpDefinition definition{.kind = OpKind::Cos,
                                           .name = "cos",
                                           .python_modules = "math tf numpy",
                                           .reverse = "neg(mul(w, sin(x)))",
                                           .python = {"math.cos(x)", "torch.cos(x)"}};
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    using std::cos;
    y[0] = cos(x[0]);
  }
};

struct Exp {
  static constexpr OpDefinition definition{.kind = OpKind::Exp,
                                           .name = "exp",
                                           .python_modules = "math tf numpy",
                                           .reverse = "mul(w, exp(x))",
                                           .python = {"math.exp(x)", "torch.exp(x)"}};
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    using std::exp;
    y[0] = exp(x[0]);
  }
};

struct Log {
  // sqrt and log are undefined at 0 although their values extend there: the paper's functions
  // are smooth on open domains, and neither is differentiable at 0.
  static constexpr OpDefinition definition{.kind = OpKind::Log,
                                           .name = "log",
                                           .domain = OpDomain::PositiveArgument,
                                           .python_modules = "math tf numpy",
                                           .reverse = "div(w, x)",
                                           .python = {"math.log(x)", "torch.log(x)"}};
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    using std::log;
    y[0] = log(x[0]);
  }
};

struct Sqrt {
  static constexpr OpDefinition definition{.kind = OpKind::Sqrt,
                                           .name = "sqrt",
                                           .domain = OpDomain::PositiveArgument,
                                           .python_modules = "math tf numpy",
                                           .reverse = "div(w, mul(2, sqrt(x)))",
                                           .python = {"math.sqrt(x)", "torch.sqrt(x)"}};
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    using std::sqrt;
    y[0] = sqrt(x[0]);
  }
};

struct Tanh {
  static constexpr OpDefinition definition{.kind = OpKind::Tanh,
                                           .name = "tanh",
                                           .python_modules = "math tf numpy",
                                           .reverse = "mul(w, sub(1, mul(tanh(x), tanh(x))))",
                                           .python = {"math.tanh(x)", "torch.tanh(x)"}};
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    using std::tanh;
    y[0] = tanh(x[0]);
  }
};

struct Sigmoid {
  static constexpr OpDefinition definition{
      .kind = OpKind::Sigmoid,
      .name = "sigmoid",
      .python_modules = "tf",
      .reverse = "mul(w, mul(sigmoid(x), sub(1, sigmoid(x))))",
      .python = {"1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))",
                 "torch.sigmoid(x)"}};
  // 1 / (1 + e^-x), written so that neither branch overflows.
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    using std::exp;
    if (x[0] >= 0) {
      y[0] = S(1) / (S(1) + exp(-x[0]));
    } else {
      S e = exp(x[0]);
      y[0] = e / (S(1) + e);
    }
  }
};

struct Floor {
  // Smooth (locally constant) off the integers, its open domain; at an integer it jumps, so it
  // is undefined there with the paper's semantics. `--predicates total` makes it total, as
  // TensorFlow's floor is: floor(n) = n with derivative 0.
  static constexpr OpDefinition definition{.kind = OpKind::Floor,
                                           .name = "floor",
                                           .domain = OpDomain::OffIntegers,
                                           .python_modules = "math tf numpy",
                                           .reverse = "0",
                                           .python = {"float(math.floor(x))", "torch.floor(x)"}};
  template <class S>
  static void primal(const S* x, S* y, unsigned) {
    using std::floor;
    y[0] = floor(x[0]);
  }
};

struct Dot {
  static constexpr OpDefinition definition{.kind = OpKind::Dot,
                                           .name = "dot",
                                           .arg = OpShape::VectorPair,
                                           .polynomial = true,
                                           .sized = true,
                                           .reverse = "(scale_n(w, v), scale_n(w, u))",
                                           .python = {"_dot(u, v)", "_dot(u, v)"}};
  // dot_n(u, v) = u_1 v_1 + ... + u_n v_n, summed left to right.
  template <class S>
  static void primal(const S* x, S* y, unsigned n) {
    S sum = x[0] * x[n];
    for (unsigned i = 1; i < n; ++i)
      sum = sum + x[i] * x[n + i];
    y[0] = sum;
  }
};

struct Scale {
  static constexpr OpDefinition definition{.kind = OpKind::Scale,
                                           .name = "scale",
                                           .arg = OpShape::RealVector,
                                           .result = OpShape::Vector,
                                           .polynomial = true,
                                           .sized = true,
                                           .reverse = "(dot_n(v, w), scale_n(c, w))",
                                           .python = {"_scale(c, v)", "_scale(c, v)"}};
  // scale_n(c, v) = (c v_1, ..., c v_n).
  template <class S>
  static void primal(const S* x, S* y, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
      y[i] = x[0] * x[1 + i];
  }
};

}  // namespace operators

// The table: every operator, in the order of OpKind.
template <class... O>
struct OperatorList {};
using Operators = OperatorList<operators::Neg, operators::Add, operators::Sub, operators::Mul,
                               operators::Div, operators::Sin, operators::Cos, operators::Exp,
                               operators::Log, operators::Sqrt, operators::Tanh, operators::Sigmoid,
                               operators::Floor, operators::Dot, operators::Scale>;

// The operators as a tuple type, to take the one of a kind: std::tuple_element_t<k, ...>.
template <class... O>
std::tuple<O...> as_tuple(OperatorList<O...>);
using OperatorTuple = decltype(as_tuple(Operators{}));

template <class... O>
constexpr std::array<OpDefinition, sizeof...(O)> definitions_of(OperatorList<O...>) {
  return {O::definition...};
}
inline constexpr auto kOpDefinitions = definitions_of(Operators{});

constexpr bool in_kind_order(const decltype(kOpDefinitions)& defs) {
  for (std::size_t i = 0; i < defs.size(); ++i)
    if (static_cast<std::size_t>(defs[i].kind) != i) return false;
  return true;
}
static_assert(kOpDefinitions.size() == kOpKindCount, "every OpKind has exactly one definition");
static_assert(in_kind_order(kOpDefinitions), "Operators lists the definitions in OpKind order");

inline constexpr const OpDefinition& definition(OpKind k) {
  return kOpDefinitions[static_cast<std::size_t>(k)];
}

}  // namespace adlang
