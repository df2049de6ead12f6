// Derivatives computed end to end (trace, R, evaluation) on cases known to trip AD systems,
// each compared with a hand-derived result.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace adlang
