// The linear R (ad/linear_reverse_deriv.hpp): printed output for each kind of trace node,
// zero propagation and dropped adjoints, the operator-table fact that makes dropping safe
// (every op_r is defined wherever its op is), long let chains, and properties on random trace
// terms and programs: agreement with the paper's R (exactly, in rationals, on the polynomial
// fragment; to 30 digits in 50-digit floats otherwise), the size bound k * |C|, type safety
// (Prop. 3.3), and nested rd through the linear R against central differences in 50 digits.
#include "ad/linear_reverse_deriv.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <functional>

#include "checker/rapidcheck_generators.hpp"
#include "lang/alpha.hpp"
#include "lang/free_vars.hpp"
#include "lang/parser.hpp"
#include "lang/printer.hpp"
#include "lang/reverse_template.hpp"
#include "lang/type_checker.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/ordinary_eval.hpp"
#include "semantics/undefined.hpp"
#include "support/stack.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::Derivative;

// W.R_V(x:T. C) by the linear R (see test::derivative).
Derivative lr(const std::string& w, const std::string& v, const std::string& t,
              const std::string& c) {
  return test::derivative(&linear_reverse_deriv, w, v, t, c);
}

TEST(LinearReverseDeriv, Variable) {
  EXPECT_EQ(lr("2", "5", "real", "x").text, "let x_1: real = 5 in\n2");
  EXPECT_EQ(lr("2", "(5, 6)", "real * real", "y").text, "let x_1: real * real = (5, 6) in\n(0, 0)");
}

TEST(LinearReverseDeriv, ConstantAndUnit) {
  EXPECT_EQ(lr("1", "(5, *)", "real * unit", "7").text, "let x_1: real * unit = (5, *) in\n(0, *)");
  EXPECT_EQ(lr("*", "5", "real", "*").value, "0");
}

// d/dD (D + E) = d/dE (D + E) = 1: the adjoint is bound once and sent to both.
TEST(LinearReverseDeriv, Addition) {
  Derivative d = lr("1", "5", "real", "x + x * y");
  EXPECT_EQ(d.value, "4");  // 1 + y
  EXPECT_EQ(d.text,
            "let x_1: real = 5 in\n"
            "let mul_1: real = x_1 * y in\n"
            "let a_1: real = x_1 + mul_1 in\n"
            "1 + 1 * y");
}

// The op's reverse template, W.op_r(D), from the operator table.
TEST(LinearReverseDeriv, Operation) {
  Derivative d = lr("1", "0.5", "real", "sin(x)");
  EXPECT_EQ(d.text, "let x_1: real = 0.5 in\nlet sin_1: real = sin(x_1) in\n1 * cos(x_1)");
  EXPECT_EQ(d.value, "0.8775825618903728");
}

// A let is a primal binding once; its adjoint is accumulated from every use.
TEST(LinearReverseDeriv, LetSharesTheBoundValue) {
  Derivative d = lr("1", "2", "real", "let z: real = x * x in z * z");
  EXPECT_EQ(d.value, "32");  // d/dx x^4 = 4 x^3
  EXPECT_EQ(d.text,
            "let x_1: real = 2 in\n"
            "let mul_1: real = x_1 * x_1 in\n"
            "let mul_2: real = mul_1 * mul_1 in\n"
            "let a_1: real = 1 * mul_1 + 1 * mul_1 in\n"
            "a_1 * x_1 + a_1 * x_1");
}

// Pairs and projections resolve statically: no 0_T, no +_T, no tuple lets.
TEST(LinearReverseDeriv, PairsAndProjections) {
  Derivative d = lr("(1, 10)", "(2, 3)", "real * real", "(snd x * fst x, fst x)");
  EXPECT_EQ(d.value, "(13, 2)");
  EXPECT_EQ(d.text,
            "let x_1: real * real = (2, 3) in\n"
            "let s_1: real = snd x_1 in\n"
            "let f_1: real = fst x_1 in\n"
            "let mul_1: real = s_1 * f_1 in\n"
            "(10 + 1 * s_1, 1 * f_1)");
  EXPECT_EQ(lr("1", "((1, 2), 3)", "real^3", "let p: real * real = fst x in snd p").value,
            "(0, 1, 0)");
}

// Zero propagation: nothing is built for what does not depend on x, or for a zero cotangent;
// the primal lets stay (they decide where the output is defined).
TEST(LinearReverseDeriv, ZeroPropagationDropsAdjoints) {
  EXPECT_EQ(lr("1", "2", "real", "sin(y) * exp(y)").text,
            "let x_1: real = 2 in\n"
            "let sin_1: real = sin(y) in\n"
            "let exp_1: real = exp(y) in\n"
            "let mul_1: real = sin_1 * exp_1 in\n"
            "0");
  EXPECT_EQ(lr("(0, 1)", "2", "real", "(sin(x), x)").text,
            "let x_1: real = 2 in\nlet sin_1: real = sin(x_1) in\n1");
  EXPECT_EQ(lr("1", "2", "real", "log(y - 3) + x").value,
            "undefined: log(x) is undefined at x = 0");
}

TEST(LinearReverseDeriv, VectorOperators) {
  EXPECT_EQ(lr("1", "(1, 2, 3)", "real^3", "dot_3(x, x)").value, "(2, 4, 6)");
  EXPECT_EQ(lr("(1, 1, 1)", "2", "real", "scale_3(x, (1, 2, y))").value, "6");
}

// The output is a trace term again, so R can differentiate it: x^3 three times.
TEST(LinearReverseDeriv, NestsOnItsOwnOutput) {
  NameSupply names;
  Term c = test::check("x * x * x", {{"x", "2"}}).term;
  reserve_names(c, names);
  Name x("x");
  Term d1 =
      linear_reverse_deriv(mk::literal("1"), mk::var(x, Type::real()), x, Type::real(), c, names);
  Term d2 =
      linear_reverse_deriv(mk::literal("1"), mk::var(x, Type::real()), x, Type::real(), d1, names);
  Term d3 =
      linear_reverse_deriv(mk::literal("1"), mk::var(x, Type::real()), x, Type::real(), d2, names);
  EXPECT_EQ(test::run_term(d1, names, {{"x", "2"}}), "12");
  EXPECT_EQ(test::run_term(d2, names, {{"x", "2"}}), "12");
  EXPECT_EQ(test::run_term(d3, names, {{"x", "2"}}), "6");
}

// A let chain 200,000 long (a loop's trace) on this thread's ordinary stack: the walks are
// iterative, and so is the compiled evaluator that runs the output.
TEST(LinearReverseDeriv, LongLetChainsNeedNoLargeStack) {
  const int n = 200000;
  Name x("x");
  Term body = mk::var(Name("v0"), Type::real());
  std::vector<Name> vs;
  for (int i = 0; i <= n; ++i)
    vs.push_back(Name("v" + std::to_string(i)));
  Term c = mk::var(vs[n], Type::real());
  for (int i = n; i >= 1; --i) {
    Term prev = mk::var(vs[i - 1], Type::real());
    c = mk::let(vs[i], Type::real(), mk::op(Op::make(OpKind::Mul), prev, mk::literal("1.000001")),
                c);
  }
  c = mk::let(vs[0], Type::real(), mk::var(x, Type::real()), c);
  NameSupply names;
  ReverseDerivStats stats;
  Term d = linear_reverse_deriv(mk::literal("1"), mk::literal("1"), x, Type::real(), c, names,
                                UINT64_MAX, &stats);
  EXPECT_LE(weighted_term_size(d), kLinearReverseSizeFactor * weighted_term_size(c));
  ValueEnv<double> rho;
  EvalOptions o;
  o.evaluator = Evaluator::Compiled;
  EvalContext cx(o, names);
  double expect = 1;
  for (int i = 0; i < n; ++i)
    expect *= 1.000001;
  EXPECT_NEAR(compiled_eval(d, rho, cx)[0], expect, 1e-9 * expect);
}

TEST(LinearReverseDeriv, StepBudget) {
  std::string c = "x";
  for (int i = 0; i < 40; ++i)
    c = "let x: real = sin(x) in " + c;
  NameSupply names;
  Term ct = test::check(c, {{"x", "1"}}).term;
  EXPECT_THROW(linear_reverse_deriv(mk::literal("1"), mk::literal("1"), Name("x"), Type::real(), ct,
                                    names, 50),
               DerivativeTooLarge);
  EXPECT_NO_THROW(linear_reverse_deriv(mk::literal("1"), mk::literal("1"), Name("x"), Type::real(),
                                       ct, names, 1000));
}

// Dropping unused adjoint lets is safe because each op_r is defined wherever its op is: at
// points inside and near the edge of every op's domain, with several cotangents, op_r's
// template evaluates (in 50 digits, where no value leaves the range).
TEST(LinearReverseDeriv, EveryReverseTemplateIsDefinedWhereItsOpIs) {
  const std::vector<std::string> reals = {"-3",     "-1",   "-0.5", "-1e-300", "0",
                                          "1e-300", "0.25", "1",    "2.5",     "1e10"};
  int checked = 0;
  for (Op op : Op::all(3)) {
    Type s = op.arg_type(), u = op.result_type();
    // Points: every combination of the sample reals for scalar and pair arguments, and a few
    // vectors for the vector ops.
    std::vector<Value<Mpfr50>> points;
    std::size_t n = s.size();
    for (std::size_t i = 0; i < reals.size(); ++i) {
      for (std::size_t j = 0; j < (n >= 2 ? reals.size() : 1); ++j) {
        Value<Mpfr50> p(n);
        for (std::size_t k = 0; k < n; ++k)
          p[k] = Mpfr50(reals[(i + k * (j + 1)) % reals.size()]);
        points.push_back(p);
      }
    }
    for (const Value<Mpfr50>& p : points) {
      Value<Mpfr50> out(u.size());
      try {
        eval_op(op, p.data(), out.data(), {}, PredicateMode::Strict);
      } catch (const Undefined&) {
        continue;  // outside op's domain: nothing to check
      }
      for (const char* w : {"1", "-2.5", "0"}) {
        NameSupply names;
        Name xn("x"), wn("w");
        Term tmpl = reverse_template(op, mk::var(xn, s), mk::var(wn, u));
        ValueEnv<Mpfr50> rho;
        rho.push(xn, p);
        rho.push(wn, Value<Mpfr50>(u.size(), Mpfr50(w)));
        EvalContext cx(EvalOptions{}, names);
        EXPECT_NO_THROW(ordinary_eval(tmpl, rho, nullptr, cx))
            << op.name() << "_r at " << print_value<Mpfr50>(s, p) << " with w = " << w;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

// ---- properties ----

struct RandomDerivative {
  Type t;  // type of x
  Term c;  // trace term, free x : t and y : real
  std::string v_text, w_text, y_text;
};

void showValue(const RandomDerivative& rd, std::ostream& os) {
  os << "x : " << to_string(rd.t) << " = " << rd.v_text << ", W = " << rd.w_text
     << ", y = " << rd.y_text << ", C =\n"
     << print_term(rd.c);
}

rc::Gen<RandomDerivative> random_derivative(bool polynomial) {
  return rc::gen::exec([polynomial] {
    RandomDerivative rd;
    rd.t = *rc::gen::element(Type::real(), Type::pair(Type::real(), Type::real()),
                             Type::pair(Type::real(), Type::unit()), Type::real_power(3));
    Type u = *rc::gen::element(Type::real(), Type::pair(Type::real(), Type::real()),
                               Type::real_power(3));
    gen::GenConfig cfg;
    cfg.max_depth = 5;
    cfg.polynomial_only = polynomial;
    rd.c = *gen::trace_term(u, {{Name("x"), rd.t}, {Name("y"), Type::real()}}, cfg);
    rd.v_text = *gen::value_text(rd.t);
    rd.w_text = *gen::value_text(u);
    rd.y_text = *gen::value_text(Type::real());
    return rd;
  });
}

Term closed_value(const std::string& text, NameSupply& names) {
  return check_term(parse_term(text), {}, names);
}

// The value of `t` (y bound), or nullopt where undefined.
template <class S>
std::optional<Value<S>> value_of(const Term& t, NameSupply& names,
                                 const std::vector<std::pair<Name, Value<S>>>& env) {
  ValueEnv<S> rho;
  for (const auto& [n, v] : env)
    rho.push(n, v);
  EvalContext cx(EvalOptions{}, names);
  try {
    return ordinary_eval(t, rho, nullptr, cx);
  } catch (const Undefined&) {
    return std::nullopt;
  }
}

constexpr std::uint64_t kPaperBudget = 200000;

// The paper's R where it is feasible (within kPaperBudget steps), else nullopt.
std::optional<Term> paper_r(const RandomDerivative& rd, NameSupply& names) {
  try {
    return reverse_deriv(closed_value(rd.w_text, names), closed_value(rd.v_text, names), Name("x"),
                         rd.t, rd.c, names, kPaperBudget);
  } catch (const DerivativeTooLarge&) {
    return std::nullopt;
  }
}

Term linear_r(const RandomDerivative& rd, NameSupply& names) {
  return linear_reverse_deriv(closed_value(rd.w_text, names), closed_value(rd.v_text, names),
                              Name("x"), rd.t, rd.c, names);
}

// Whether C is defined at x = V (and y).
template <class S>
bool defined_at(const RandomDerivative& rd, NameSupply& names) {
  std::optional<Value<S>> v;
  run_on_large_stack([&] {
    v = value_of<S>(rd.c, names,
                    {{Name("x"), parse_value<S>(rd.v_text).value},
                     {Name("y"), parse_value<S>(rd.y_text).value}});
  });
  return v.has_value();
}

// The linear R keeps every primal let, so its output is defined exactly where C is (at V).
// The paper's R evaluates only the reverse templates of ops in result position, so it can be
// defined outside C's domain: 1.R_{-3}(x. log(x)) = 1 / -3 there, although log is undefined at
// -3 and so is the derivative (the denotation of rd, Fig. 7). Where C is defined, both are,
// and agree.
template <class S>
void check_against_paper(const RandomDerivative& rd,
                         const std::function<void(const S&, const S&)>& same) {
  NameSupply names;
  std::optional<Term> paper;
  Term linear;
  run_on_large_stack([&] {
    paper = paper_r(rd, names);
    linear = linear_r(rd, names);
  });
  Value<S> y = parse_value<S>(rd.y_text).value;
  std::optional<Value<S>> a, b;
  run_on_large_stack([&] { b = value_of<S>(linear, names, {{Name("y"), y}}); });
  bool c_defined = defined_at<S>(rd, names);
  RC_ASSERT(b.has_value() == c_defined);
  RC_PRE(paper.has_value());
  run_on_large_stack([&] { a = value_of<S>(*paper, names, {{Name("y"), y}}); });
  if (!c_defined) return;
  RC_ASSERT(a.has_value());
  RC_ASSERT(a->size() == b->size());
  for (std::size_t i = 0; i < a->size(); ++i)
    same((*a)[i], (*b)[i]);
}

// On the polynomial fragment both Rs compute in exact rationals: the same value.
RC_GTEST_PROP(LinearReverseDeriv, AgreesWithThePapersRExactly, ()) {
  check_against_paper<Rational>(*random_derivative(true),
                                [](const Rational& a, const Rational& b) { RC_ASSERT(a == b); });
}

// With the whole operator table, in 50 digits: the same value to 30 digits (the two sum the
// same terms in different orders).
RC_GTEST_PROP(LinearReverseDeriv, AgreesWithThePapersRIn50Digits, ()) {
  check_against_paper<Mpfr50>(*random_derivative(false), [](const Mpfr50& a, const Mpfr50& b) {
    RC_ASSERT(abs(a - b) <= Mpfr50("1e-30") * (1 + abs(a)));
  });
}

// |W.R_V(x:T. C)| <= k (|C| + |V| + |W|), k = kLinearReverseSizeFactor.
RC_GTEST_PROP(LinearReverseDeriv, OutputIsLinearInTheTrace, ()) {
  RandomDerivative rd = *random_derivative(false);
  NameSupply names;
  Term w = closed_value(rd.w_text, names), v = closed_value(rd.v_text, names);
  Term d;
  run_on_large_stack([&] { d = linear_reverse_deriv(w, v, Name("x"), rd.t, rd.c, names); });
  double bound = kLinearReverseSizeFactor *
                 (weighted_term_size(rd.c) + weighted_term_size(v) + weighted_term_size(w));
  RC_ASSERT(weighted_term_size(d) <= bound);
}

// Prop. 3.3 for the linear R: its output is a trace term of type T, which prints and
// type-checks from scratch under Gamma = y : real.
RC_GTEST_PROP(LinearReverseDeriv, OutputTypeChecksProp33, ()) {
  RandomDerivative rd = *random_derivative(false);
  NameSupply names;
  Term d = linear_r(rd, names);
  RC_ASSERT(is_trace_term(d));
  RC_ASSERT(d.type() == rd.t);
  SyntaxProgram p = parse_program(print_term(d));
  NameSupply fresh;
  Term back = check_program(p, {{Name("y"), Type::real()}}, fresh);
  RC_ASSERT(alpha_equivalent(back, d));
}

// Nested rd through the linear R: 1.rd_{y0}(y: real. 1.rd_{x0}(x: real. C)) is the mixed second
// derivative d^2 C / dx dy at (x0, y0), against the central-difference quotient
//   (C(x0+h, y0+h) - C(x0+h, y0-h) - C(x0-h, y0+h) + C(x0-h, y0-h)) / 4h^2,  h = 1e-12,
// all in 50-digit arithmetic (error O(h^2) + O(1e-50 / h^2)).
RC_GTEST_PROP(LinearReverseDeriv, NestedRdAgreesWithCentralDifferencesIn50Digits, ()) {
  gen::GenConfig cfg;
  cfg.max_depth = 4;
  Name x("x"), y("y");
  Term c = *gen::trace_term(Type::real(), {{x, Type::real()}, {y, Type::real()}}, cfg);
  std::string x0 = *gen::value_text(Type::real()), y0 = *gen::value_text(Type::real());
  NameSupply names;
  reserve_names(c, names);
  Term inner = mk::rd(mk::literal("1"), mk::literal(x0), x, Type::real(), c);
  Term program = mk::rd(mk::literal("1"), mk::literal(y0), y, Type::real(), inner);
  EvalOptions o;
  use_ad(o, AdMode::Linear);
  o.max_derivative_steps = 10'000'000;
  std::optional<Value<Mpfr50>> second;
  run_on_large_stack([&] {
    ValueEnv<Mpfr50> rho;
    EvalContext cx(o, names);
    try {
      second = ordinary_eval(program, rho, nullptr, cx);
    } catch (const Undefined&) {
    }
  });
  const Mpfr50 xv(x0), yv(y0);
  auto at = [&](const Mpfr50& a, const Mpfr50& b) {
    return value_of<Mpfr50>(c, names, {{x, Value<Mpfr50>{a}}, {y, Value<Mpfr50>{b}}});
  };
  RC_PRE(at(xv, yv).has_value());
  RC_ASSERT(second.has_value());
  // The mixed central difference at h = 1e-12 and 1e-13: its truncation error is O(h^2) times
  // C's fourth derivatives, large where C is steep, so the estimate is used only where the two
  // agree (it has converged). Rounding in the quotient is about 1e-50 * max|C| / h^2.
  Mpfr50 fd[2], size = 0;
  const Mpfr50 steps[2] = {Mpfr50("1e-12"), Mpfr50("1e-13")};
  for (int k = 0; k < 2; ++k) {
    const Mpfr50& h = steps[k];
    auto pp = at(xv + h, yv + h), pm = at(xv + h, yv - h), mp = at(xv - h, yv + h),
         mm = at(xv - h, yv - h);
    RC_PRE(pp && pm && mp && mm);
    fd[k] = ((*pp)[0] - (*pm)[0] - (*mp)[0] + (*mm)[0]) / (4 * h * h);
    size = abs((*pp)[0]) + abs((*pm)[0]) + abs((*mp)[0]) + abs((*mm)[0]);
  }
  RC_PRE(abs(fd[0] - fd[1]) <= Mpfr50("1e-16") * (1 + abs(fd[1])) + Mpfr50("1e-22") * size);
  Mpfr50 err = abs(fd[1] - (*second)[0]);
  RC_ASSERT(err <= Mpfr50("1e-15") * (1 + abs(fd[1])) + Mpfr50("1e-20") * size);
}

}  // namespace
}  // namespace adlang
