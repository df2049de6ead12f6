// Derivatives computed end to end (trace, R, evaluation) on cases known to trip AD systems,
// each compared with a hand-derived result.
#include <gtest/gtest.h>

#include "ad/linear_reverse_deriv.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::run;

// JAX/TF `where` gives NaN gradients when the untaken branch is undefined (log of a negative):
// tracing takes only the branch that runs, so the gradient is that branch's.
TEST(DifferentiationCases, UntakenBranchDoesNotPoisonTheGradient) {
  EXPECT_EQ(run<double>("grad[-1](x: real. if x > 0 then log(x) else 0)"), "0");
  EXPECT_EQ(run<double>("grad[2](x: real. if x > 0 then log(x) else 0)"), "0.5");
}

// Siskind & Pearlmutter's perturbation confusion: d/dx (x * d/dy (x + y)) = 1, not 2.
TEST(DifferentiationCases, NoPerturbationConfusion) {
  EXPECT_EQ(run<double>("1.rd[1](x: real. x * 1.rd[1](y: real. x + y))"), "1");
}

// sqrt(x * x) at 0: NaN or inf in many systems; here the operator is outside its open domain.
TEST(DifferentiationCases, SqrtAtZeroIsUndefinedNotNaN) {
  EXPECT_EQ(run<double>("grad[0](x: real. sqrt(x * x))"),
            "undefined: sqrt(x) is undefined at x = 0");
  EXPECT_EQ(run<double>("grad[-2](x: real. sqrt(x * x))"), "-1");
}

// x / x is 1 wherever it is defined, so its derivative is 0 there.
TEST(DifferentiationCases, QuotientOfEqualTerms) {
  EXPECT_EQ(run<double>("grad[3](x: real. x / x)"), "0");
}

// A Jacobian row by a basis cotangent: J of (x, y) |-> (x y, sin x) at (2, 3), row 2 = (cos 2, 0).
TEST(DifferentiationCases, JacobianRowsByCotangents) {
  EXPECT_EQ(run<double>("(0, 1).rd[(2, 3)](p: real * real. (fst p * snd p, sin(fst p)))"),
            "(-0.4161468365471424, 0)");
  EXPECT_EQ(run<double>("(1, 0).rd[(2, 3)](p: real * real. (fst p * snd p, sin(fst p)))"),
            "(3, 2)");
}

// Derivatives with respect to a unit or a pair with a unit component.
TEST(DifferentiationCases, UnitComponents) {
  EXPECT_EQ(run<double>("1.rd[*](u: unit. 5)"), "*");
  EXPECT_EQ(run<double>("1.rd[(2, *)](p: real * unit. fst p * fst p)"), "(4, *)");
}

// A derivative through a recursive function: d/dx x^n by repeated multiplication = n x^(n-1).
TEST(DifferentiationCases, ThroughRecursion) {
  EXPECT_EQ(run<double>("def pow(p: real * real): real =\n"
                        "  if snd p < 0.5 then 1 else fst p * pow(fst p, snd p - 1);\n"
                        "grad[2](x: real. pow(x, 1))"),
            "1");
}

// The derivative of a strict conditional is undefined only on the boundary.
TEST(DifferentiationCases, StrictConditionalsOffTheBoundary) {
  EXPECT_EQ(run<double>("grad[0.5](x: real. if x < 0.5 then x else x * x)").substr(0, 9),
            "undefined");
  EXPECT_EQ(run<double>("grad[0.75](x: real. if x < 0.5 then x else x * x)"), "1.5");
}

// Exact rational derivatives of a rational function: d/dx 1 / (1 + x^2) = -2x / (1 + x^2)^2.
TEST(DifferentiationCases, ExactRationalDerivative) {
  EXPECT_EQ(run<Rational>("grad[0.5](x: real. 1 / (1 + x * x))"), "-0.64");
  EXPECT_EQ(run<Rational>("grad[0](x: real. 1 / (3 + x))"), "-1/9");
}

// Nested derivatives through the linear R (the default of adlang run), exactly in rationals
// where the program is polynomial, and each also through Fig. 6's R where it is feasible.
EvalOptions with_linear_r() {
  EvalOptions o;
  use_ad(o, AdMode::Linear);
  return o;
}

// d/dx (x * d/dy (x * y)) = d/dx x^2 = 2x: 6 at x = 3 (fd over fd, four levels of rd).
TEST(DifferentiationCases, NestedForwardDerivatives) {
  const char* p = "1.fd[3](x: real. x * 1.fd[2](y: real. x * y))";
  EXPECT_EQ(run<Rational>(p, {}, with_linear_r()), "6");
  // Fig. 6's R on its own output: exponential, reported as a budget error, never a hang.
  EvalOptions paper;
  paper.max_derivative_steps = 100000;
  EXPECT_EQ(run<Rational>(p, {}, paper),
            "undefined: the derivatives of this run need more than 100000 steps of R in all");
}

// A Hessian-vector product by fd over grad: f(q) = q1^2 q2 + q2^3 at (1, 2), H (1, 0) =
// (2 q2, 2 q1) = (4, 2).
TEST(DifferentiationCases, HessianVectorProduct) {
  const char* p =
      "(1, 0).fd[(1, 2)](p: real * real. grad[p](q: real * real. fst q * fst q * snd q + snd q * "
      "snd q * snd q))";
  EXPECT_EQ(run<Rational>(p, {}, with_linear_r()), "(4, 2)");
}

// grad of x^5 by repeated multiplication at 2: 5 * 2^4 = 80; and the fifth derivative of x^5
// by five nested fd (ten levels of rd), 5! = 120, which Fig. 6's R cannot finish.
TEST(DifferentiationCases, HigherDerivativesOfAPower) {
  EXPECT_EQ(run<Rational>("grad[2](x: real. x * x * x * x * x)", {}, with_linear_r()), "80");
  EXPECT_EQ(run<Rational>("grad[2](x: real. x * x * x * x * x)"), "80");
  EXPECT_EQ(run<Rational>("1.fd[0.5](a: real. 1.fd[a](b: real. 1.fd[b](c: real. 1.fd[c](d: "
                          "real. 1.fd[d](x: real. x * x * x * x * x)))))",
                          {}, with_linear_r()),
            "120");
}

// The third derivative of sin by three nested fd: -cos.
TEST(DifferentiationCases, ThirdDerivativeOfSin) {
  EXPECT_EQ(run<double>("1.fd[0.5](a: real. 1.fd[a](b: real. 1.fd[b](x: real. sin(x))))", {},
                        with_linear_r()),
            "-0.8775825618903728");
}

}  // namespace
}  // namespace adlang
