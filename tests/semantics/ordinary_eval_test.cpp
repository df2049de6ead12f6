// Ordinary evaluation: one test per rule of Fig. 2 (values and redexes) and Fig. 3
// (contexts), undefinedness with reasons, precisions, strict and total predicates, fuel and the
// limited language of Fig. 8.
#include "semantics/ordinary_eval.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "checker/program_generator.hpp"
#include "support/stack.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::run;

// phi | rho |- V => rho(V)
TEST(OrdinaryEval, ValueRule) {
  EXPECT_EQ(run<double>("(x, (*, 2.5))", {{"x", "1"}}), "(1, (*, 2.5))");
}

// phi | rho |- V + W => t (t = r + s)
TEST(OrdinaryEval, AdditionRule) {
  EXPECT_EQ(run<double>("x + 2", {{"x", "0.5"}}), "2.5");
}

// phi | rho |- op(V) => W (ev(op, V') ~ W)
TEST(OrdinaryEval, OperationRule) {
  EXPECT_EQ(run<double>("dot_2((1, 2), (3, 4))"), "11");
  EXPECT_EQ(run<double>("scale_3(2, (1, 2, 3))"), "(2, 4, 6)");
  EXPECT_EQ(run<double>("sigmoid(0)"), "0.5");
}

// phi | rho |- let x:T = V in N => W
TEST(OrdinaryEval, LetRule) {
  EXPECT_EQ(run<double>("let y: real = 3 in y * y"), "9");
}

// phi | rho |- fst(V) => W1, snd(V) => W2
TEST(OrdinaryEval, ProjectionRules) {
  EXPECT_EQ(run<double>("fst p", {{"p", "((1, 2), *)"}}), "(1, 2)");
  EXPECT_EQ(run<double>("snd p", {{"p", "((1, 2), *)"}}), "*");
}

// if true then M else N => V if M => V; if false ... N => V
TEST(OrdinaryEval, ConditionalRules) {
  EXPECT_EQ(run<double>("if true then 1 else 2"), "1");
  EXPECT_EQ(run<double>("if false then 1 else 2"), "2");
}

// letrec f(x:T):U = M in N => V under phi[clo_phi(f(x:T):U. M)/f]
TEST(OrdinaryEval, LetrecRule) {
  EXPECT_EQ(run<double>("letrec f(n: real): real = if n < 0.5 then 0 else 2 + f(n - 1) in f(4)"),
            "8");
}

// f(V) => W under phi'[phi(f)/f] | {x -> V'}: the callee sees its defining environment, not
// the caller's (static scoping of functions).
TEST(OrdinaryEval, ApplicationRuleUsesTheClosuresEnvironment) {
  EXPECT_EQ(run<double>("let g(x: real): real = 1 in\n"
                        "let f(x: real): real = g(x) in\n"
                        "let g(x: real): real = 2 in\n"
                        "f(0) + g(0)"),
            "3");
}

TEST(OrdinaryEval, MutuallyRecursiveDefs) {
  EXPECT_EQ(run<double>("def even(n: real): real = if n < 0.5 then 1 else odd(n - 1);\n"
                        "def odd(n: real): real = if n < 0.5 then 0 else even(n - 1);\n"
                        "(even(10), odd(10))"),
            "(1, 0)");
}

// W.rd_V(x:T. N) => X if W.rd_V(x:T. N) ~> C and C => X
TEST(OrdinaryEval, DifferentiationRule) {
  EXPECT_EQ(run<double>("1.rd[3](x: real. x * x)"), "6");
  EXPECT_EQ(run<double>("(1, 0).rd[2](x: real. (x * x, x))"), "4");
  EXPECT_EQ(run<double>("grad[(1, 2)](q: real * real. fst q * snd q)"), "(2, 1)");
}

// pred(V) => W_bool (bev(pred, V') ~ W_bool)
TEST(OrdinaryEval, PredicateRule) {
  EXPECT_EQ(run<double>("if 1 < 2 then 1 else 0"), "1");
  EXPECT_EQ(run<double>("if le(2, 1) then 1 else 0"), "0");
}

// Fig. 3: E[R] => W if R => V and E[x] => W under rho[V/x]; left to right.
TEST(OrdinaryEval, ContextRules) {
  EXPECT_EQ(run<double>("(1 + 2, 3 + 4)"), "(3, 7)");
  EXPECT_EQ(run<double>("fst (sin(0), 1) + snd (1, cos(0))"), "1");
  // The left operand is evaluated first: its error is the one reported.
  EXPECT_EQ(run<double>("log(0) + 1 / 0"), "undefined: log(x) is undefined at x = 0");
}

// Fig. 3 with boolean contexts: E_bool[R] and E[R_bool].
TEST(OrdinaryEval, BooleanContextRules) {
  EXPECT_EQ(run<double>("if x + 1 < x * 2 then 1 else 0", {{"x", "3"}}), "1");
}

// The paper's nested-differentiation examples (Sec. 3), both evaluate to 1.
TEST(OrdinaryEval, PaperNestedDifferentiationExamples) {
  EXPECT_EQ(run<double>("1.rd[1](x: real. x * 1.rd[1](y: real. x + y))"), "1");
  EXPECT_EQ(run<double>("letrec f(x: real): real = 1.rd[1](y: real. x + y) in\n"
                        "1.rd[1](x: real. x + f(x))"),
            "1");
}

TEST(OrdinaryEval, StrictPredicatesAreUndefinedOnTheDiagonal) {
  EXPECT_EQ(run<double>("if x < 0 then 0 else x", {{"x", "0"}}),
            "undefined: the comparison '<' is undefined where its two sides are equal (both are "
            "0)");
  EXPECT_EQ(run<double>("if x = 0 then 0 else x", {{"x", "1"}}), "1");
  EXPECT_EQ(run<double>("if x >= 0 then 1 else 0", {{"x", "0"}}).substr(0, 9), "undefined");
}

TEST(OrdinaryEval, TotalPredicatesAreTheConventionalOnes) {
  EvalOptions total;
  total.predicates = PredicateMode::Total;
  EXPECT_EQ(run<double>("if x < 0 then 0 else x", {{"x", "0"}}, total), "0");
  EXPECT_EQ(run<double>("if x = 0 then 0 else x", {{"x", "0"}}, total), "0");
  EXPECT_EQ(run<double>("if x <= 0 then 1 else 0", {{"x", "0"}}, total), "1");
  // The paper's example: the derivative of a function equal to the identity is 0 here.
  EXPECT_EQ(run<double>("grad[0](x: real. if x = 0 then 0 else x)", {}, total), "0");
  EXPECT_EQ(run<double>("grad[0](x: real. if x = 0 then 0 else x)").substr(0, 9), "undefined");
}

TEST(OrdinaryEval, OperatorsOutsideTheirDomainAreUndefined) {
  EXPECT_EQ(run<double>("log(-1)"), "undefined: log(x) is undefined at x = -1");
  EXPECT_EQ(run<double>("sqrt(0)"), "undefined: sqrt(x) is undefined at x = 0");
  EXPECT_EQ(run<double>("1 / (x - x)", {{"x", "2"}}), "undefined: division by zero");
}

// floor is smooth off the integers (its open domain), with derivative 0 there; at an integer
// it jumps: undefined with the paper's predicates, TensorFlow's floor with total ones.
TEST(OrdinaryEval, FloorIsUndefinedAtTheIntegersUnlessTotal) {
  EXPECT_EQ(run<double>("floor(x)", {{"x", "2.5"}}), "2");
  EXPECT_EQ(run<double>("floor(x)", {{"x", "-0.5"}}), "-1");
  EXPECT_EQ(run<double>("grad[2.5](x: real. x * floor(x))"), "2");
  EXPECT_EQ(run<double>("floor(x)", {{"x", "3"}}).substr(0, 44),
            "undefined: floor(x) is undefined at x = 3");
  EvalOptions total;
  total.predicates = PredicateMode::Total;
  EXPECT_EQ(run<double>("floor(x)", {{"x", "3"}}, total), "3");
  EXPECT_EQ(run<double>("grad[3](x: real. x * floor(x))", {}, total), "3");
  EXPECT_EQ(run<double>("grad[3](x: real. floor(x))", {}, total), "0");
}

TEST(OrdinaryEval, ResultsOutsideThePrecisionAreUndefinedWithAHint) {
  EXPECT_EQ(run<double>("exp(1000)"),
            "undefined: the result of exp is outside the range of double precision");
  EXPECT_EQ(run<Mpfr50>("exp(1000)").substr(0, 24), "1.9700711140170469938888");
  EXPECT_EQ(run<double>("1e400"),
            "undefined: the literal 1e400 is outside the range of double precision");
  EXPECT_EQ(run<double>("1e308 + 1e308"),
            "undefined: the sum is outside the range of double precision");
}

TEST(OrdinaryEval, HighPrecision) {
  // Shortest round-trip form: 50 digits do not pin down the 168-bit float, 51 do.
  EXPECT_EQ(run<Mpfr50>("1 / 3"), "0.333333333333333333333333333333333333333333333333334");
  EXPECT_EQ(run<Mpfr100>("sqrt(2)").size(), 102u);
  EXPECT_EQ(run<Mpfr50>("0.1 + 0.2"), "0.3");
}

TEST(OrdinaryEval, ExactRationalsOnThePolynomialFragment) {
  EXPECT_EQ(run<Rational>("1 / 3 + 1 / 6"), "0.5");
  EXPECT_EQ(run<Rational>("1 / 3"), "1/3");
  EXPECT_EQ(run<Rational>("0.1 + 0.2"), "0.3");
  EXPECT_EQ(run<Rational>("1.rd[3](x: real. x * x * x / 2)"), "13.5");
  EXPECT_EQ(run<Rational>("sin(1)").substr(0, 24), "undefined: sin is not in");
}

TEST(OrdinaryEval, FuelBoundsRecursion) {
  EvalOptions o;
  o.fuel = 1000;
  EXPECT_EQ(run<double>("def f(x: real): real = f(x); f(1)", {}, o),
            "undefined: out of fuel after 1000 function calls in 'f'");
}

// Fig. 8: letrec_n f ... : a call through clo_{n+1} runs the body with f bound to clo_n.
TEST(OrdinaryEval, LimitedLanguageUnfoldsAtMostNTimes) {
  std::string countdown = "def f(n: real): real = if n < 0.5 then 0 else 1 + f(n - 1);\nf(k)";
  EvalOptions o;
  o.unfold = 4;
  EXPECT_EQ(run<double>(countdown, {{"k", "3"}}, o), "3");  // 4 calls
  EXPECT_EQ(run<double>(countdown, {{"k", "4"}}, o),
            "undefined: 'f' is called beyond the unfolding bound of the limited language "
            "(letrec_n, Fig. 8)");
}

TEST(OrdinaryEval, DeepRecursionIsUndefinedNotACrash) {
  // No base case: the fuel or the stack runs out first, either way a clean error.
  std::string result = run<double>("def f(x: real): real = 1 + f(x); f(1)");
  EXPECT_TRUE(result.find("out of fuel") != std::string::npos ||
              result.find("nested too deeply") != std::string::npos)
      << result;
}

// Underflow (docs/semantics.md): a nonzero number too small for the precision rounds to 0, a
// literal as the result of an operation does (IEEE 754 gradual underflow); a domain error at 0
// says that its argument may have underflowed.
TEST(OrdinaryEval, UnderflowRoundsToZeroForLiteralsAndResultsAlike) {
  EXPECT_EQ(run<double>("1e-400"), "0");
  EXPECT_EQ(run<double>("exp(-1000)"), "0");
  EXPECT_EQ(run<double>("1e-200 * 1e-200"), "0");
  EXPECT_EQ(run<double>("5e-324 / 2"), "0");
  EXPECT_EQ(run<double>("1e-310"), "1e-310");  // subnormal
  EXPECT_EQ(run<Mpfr50>("1e-400"), "1e-400");  // MPFR's range reaches far below
  EXPECT_EQ(run<double>("log(exp(-1000))"), "undefined: log(x) is undefined at x = 0");
  EXPECT_EQ(run<double>("log(1e-400)"), "undefined: log(x) is undefined at x = 0");
  EXPECT_NE(run<Mpfr50>("log(exp(-1000))"), "undefined: log(x) is undefined at x = 0");
}

// The derivative budget is the run's: the message states it, not what was left of it.
TEST(OrdinaryEval, DerivativeBudgetMessageStatesTheLimit) {
  EvalOptions o;
  o.max_derivative_steps = 40;
  std::string r = run<double>(
      "let a = 1.rd[1](x: real. x * x * x) in 1.rd[a](y: real. sin(y) * cos(y) * exp(y) * y * y * "
      "y)",
      {}, o);
  EXPECT_EQ(r, "undefined: the derivatives of this run need more than 40 steps of R in all");
}

}  // namespace
}  // namespace adlang
