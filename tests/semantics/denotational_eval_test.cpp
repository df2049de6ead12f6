// The denotational evaluator (Fig. 7): paper examples, nested derivatives without perturbation
// confusion, J^T w on non-square Jacobians, least fixed points through approximants, the
// limited language, undefinedness with reasons and locations; and property tests of the
// tagged dual numbers it is built on.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "lang/parser.hpp"
#include "lang/type_checker.hpp"
#include "semantics/denotational_eval.hpp"
#include "semantics/ordinary_eval.hpp"
#include "semantics/tagged_dual.hpp"
#include "support/stack.hpp"

namespace adlang {
namespace {

struct Meaning {
  std::string text;      // the value printed, or "undefined: <reason>"
  UndefinedKind kind{};  // when undefined
  SourceLoc loc;         // when undefined
  DenotationStats stats;
};

// [[program]] with inputs given as NAME=VALUE texts.
template <class S = double>
Meaning den(const std::string& program,
            const std::vector<std::pair<std::string, std::string>>& env = {},
            DenotationOptions o = {}) {
  Meaning m;
  run_on_large_stack([&] {
    SyntaxProgram p = parse_program(program);
    NameSupply names;
    for (const Name& n : p.identifiers)
      names.reserve(n);
    std::vector<TypedName> typed;
    DenEnv<S> gamma;
    for (const auto& [name, value] : env) {
      ParsedValue<S> v = parse_value<S>(value);
      typed.push_back(TypedName{Name(name), v.type});
      gamma.emplace_back(Name(name), v.value);
    }
    Term t = check_program(p, typed, names);
    try {
      Value<S> v = denote(t, gamma, o, &m.stats);
      m.text = print_value<S>(t.type(), v);
    } catch (const Undefined& e) {
      m.text = std::string("undefined: ") + e.what();
      m.kind = e.kind();
      m.loc = e.loc();
    }
  });
  return m;
}

TEST(DenotationalEval, PaperNestedDerivativeExamples) {
  // Sec. 3: 1.rd_1(x. x * 1.rd_1(y. x + y)) => 1, and the letrec variant => 1.
  EXPECT_EQ(den("1.rd[1](x: real. x * 1.rd[1](y: real. x + y))").text, "1");
  EXPECT_EQ(den("letrec f(x: real): real = 1.rd[1](y: real. x + y) in "
                "1.rd[1](x: real. x + f(x))")
                .text,
            "1");
}

TEST(DenotationalEval, NoPerturbationConfusion) {
  // d/dx (x * d/dy (x * y)) at x = 3 is d/dx (x * x) = 6; confusing the two perturbations
  // would add the inner derivative's dependence on the outer one differently.
  EXPECT_EQ(den("grad[3](x: real. x * grad[2](y: real. x * y))").text, "6");
  // Third-order: d^3/dx^3 x^4 at 2 = 24 * 2 = 48 (three nested levels).
  EXPECT_EQ(den("grad[2](a: real. grad[a](b: real. grad[b](c: real. c * c * c * c)))").text, "48");
}

TEST(DenotationalEval, GradientOfAProduct) {
  Meaning m =
      den("grad[(x, y)](p: real * real. sin(fst p) * snd p * snd p)", {{"x", "0.5"}, {"y", "2"}});
  EXPECT_EQ(m.text, "(3.510330247561491, 1.917702154416812)");
}

TEST(DenotationalEval, TransposedJacobianOnNonSquareMaps) {
  // f(a) = (a, 2a, 3a) : real -> real^3, J = (1, 2, 3)^T; J^T w = w1 + 2 w2 + 3 w3.
  EXPECT_EQ(den("(1, 10, 100).rd[0.5](a: real. (a, 2 * a, 3 * a))").text, "321");
  // g(p) = fst p * snd p : real^2 -> real, J^T w = w (b, a).
  EXPECT_EQ(den("2.rd[(3, 5)](p: real * real. fst p * snd p)").text, "(10, 6)");
}

TEST(DenotationalEval, UnitPointsAndResults) {
  // d^r of a map from R^0 is the empty vector, defined iff the map is (Sec. 4.1).
  EXPECT_EQ(den("1.rd[*](u: unit. 3)").text, "*");
  EXPECT_EQ(den("1.rd[*](u: unit. log(0))").kind, UndefinedKind::OpDomain);
  EXPECT_EQ(den("*.rd[2](a: real. *)").text, "0");
}

TEST(DenotationalEval, StrictPredicatesAreUndefinedOnTheDiagonal) {
  Meaning m = den("grad[x](x: real. if x = 0 then 0 else x)", {{"x", "0"}});
  EXPECT_EQ(m.kind, UndefinedKind::Predicate);
  EXPECT_EQ(m.loc.line, 1u);
  EXPECT_EQ(m.loc.col, 23u);
  EXPECT_EQ(den("grad[x](x: real. if x = 0 then 0 else x)", {{"x", "1"}}).text, "1");
  DenotationOptions total;
  total.predicates = PredicateMode::Total;
  // The conventional comparison takes the branch at the point: derivative 0 instead of 1.
  EXPECT_EQ(den("grad[x](x: real. if x = 0 then 0 else x)", {{"x", "0"}}, total).text, "0");
}

TEST(DenotationalEval, OperatorDomainsAndRange) {
  Meaning m = den("let y: real = 2 in log(y - 2)");
  EXPECT_EQ(m.kind, UndefinedKind::OpDomain);
  EXPECT_NE(m.text.find("log(x) is undefined at x = 0"), std::string::npos);
  EXPECT_EQ(den("1 / (x - x)", {{"x", "3"}}).kind, UndefinedKind::OpDomain);
  EXPECT_EQ(den("exp(1000)").kind, UndefinedKind::Range);
  EXPECT_EQ(den<Mpfr50>("exp(1000)").text.substr(0, 6), "1.9700");
}

TEST(DenotationalEval, FloorIsLocallyConstantOffTheIntegers) {
  EXPECT_EQ(den("floor(x)", {{"x", "-1.5"}}).text, "-2");
  EXPECT_EQ(den("grad[x](x: real. x * floor(x))", {{"x", "2.5"}}).text, "2");
  EXPECT_EQ(den("floor(x)", {{"x", "2"}}).kind, UndefinedKind::OpDomain);
  DenotationOptions total;
  total.predicates = PredicateMode::Total;
  EXPECT_EQ(den("grad[x](x: real. x * floor(x))", {{"x", "2"}}, total).text, "2");
}

TEST(DenotationalEval, LeastFixedPointThroughApproximants) {
  const char* fact = "def fact(n: real): real = if n < 0.5 then 1 else n * fact(n - 1);\nfact(x)";
  Meaning m = den(fact, {{"x", "5.25"}});
  EXPECT_EQ(m.text, "203.9501953125");
  EXPECT_GE(m.stats.approximant, 6u);  // mu_n is defined at 5.25 only for n >= 6
  // Divergence: no approximant is defined.
  DenotationOptions small;
  small.max_approximant = 64;
  Meaning d = den("def f(x: real): real = f(x);\nf(1)", {}, small);
  EXPECT_EQ(d.kind, UndefinedKind::Unfold);
  EXPECT_NE(d.text.find("no Kleene approximant"), std::string::npos);
}

TEST(DenotationalEval, LimitedLanguageOfFig8) {
  const char* fact = "def fact(n: real): real = if n < 0.5 then 1 else n * fact(n - 1);\nfact(x)";
  DenotationOptions o;
  o.unfold = 3;  // mu_3 allows three applications: n = 2.25 needs fact(2.25), (1.25), (0.25)
  EXPECT_EQ(den(fact, {{"x", "2.25"}}, o).text, "2.8125");  // 2.25 * 1.25 * 1
  Meaning m = den(fact, {{"x", "3.25"}}, o);
  EXPECT_EQ(m.kind, UndefinedKind::Unfold);
  EXPECT_NE(m.text.find("mu_3"), std::string::npos);
  o.unfold = 0;
  EXPECT_EQ(den(fact, {{"x", "0.25"}}, o).kind, UndefinedKind::Unfold);
}

TEST(DenotationalEval, MutuallyRecursiveDefsAreOneTuple) {
  const char* prog =
      "def even(n: real): real = if n < 0.5 then 1 else odd(n - 1);\n"
      "def odd(n: real): real = if n < 0.5 then 0 else even(n - 1);\n"
      "even(x)";
  EXPECT_EQ(den(prog, {{"x", "4.25"}}).text, "1");
  EXPECT_EQ(den(prog, {{"x", "3.25"}}).text, "0");
}

TEST(DenotationalEval, RecursionThroughADerivative) {
  // f(n, a) = a^2 at n < 0.5, else d/da f(n - 1, a): f(2.25, a) = d^2/da^2 a^2 = 2.
  const char* prog =
      "def f(p: real * real): real = if fst p < 0.5 then snd p * snd p "
      "else grad[snd p](a: real. f(fst p - 1, a));\n"
      "f(2.25, 3)";
  EXPECT_EQ(den(prog).text, "2");
}

TEST(DenotationalEval, ExactRationals) {
  EXPECT_EQ(den<Rational>("grad[x](y: real. y * y * y / 3)", {{"x", "0.1"}}).text, "0.01");
  EXPECT_EQ(den<Rational>("1 / 3 + x", {{"x", "0.875"}}).text, "29/24");
}

TEST(DenotationalEval, DerivativeOfExpTimesIdentity) {
  // d/dz (e^z z) = e^z (1 + z); at z = 0.25: 1.2840254166877414 * 1.25.
  const char* prog = "let y: real = x * x in (sin(y), grad[y](z: real. exp(z) * z))";
  EXPECT_EQ(den(prog, {{"x", "0.5"}}).text, "(0.24740395925452294, 1.6050317708596769)");
}

// ---- tagged dual numbers ------------------------------------------------------------------

TEST(TaggedDual, MixedPartialDerivatives) {
  using T = Tagged<double>;
  // x = 3 + e0, y = 5 + e1: x * y = 15 + 5 e0 + 3 e1 + e0 e1.
  T x = T(3.0) + T::epsilon(0), y = T(5.0) + T::epsilon(1);
  T p = x * y;
  EXPECT_EQ(p.primal(), 15);
  auto [a, b] = p.split(1);  // p = a + e1 b
  EXPECT_EQ(b.primal(), 3);
  EXPECT_EQ(b.split(0).second.primal(), 1);
  EXPECT_EQ(a.split(0).second.primal(), 5);
  // e0 * e0 = 0 (nilpotent).
  EXPECT_TRUE((T::epsilon(0) * T::epsilon(0)).is_constant());
}

RC_GTEST_PROP(TaggedDual, RingLawsHoldExactly, (int a0, int a1, int b0, int b1, int c0)) {
  using T = Tagged<Rational>;
  T a = T(Rational(a0)) + T(Rational(a1)) * T::epsilon(0);
  T b = T(Rational(b0)) + T(Rational(b1)) * T::epsilon(1);
  T c = T(Rational(c0)) + T::epsilon(0) * T::epsilon(1);
  RC_ASSERT(a * b == b * a);
  RC_ASSERT((a + b) * c == a * c + b * c);
  RC_ASSERT((a * b) * c == a * (b * c));
  RC_ASSERT(a - a == T(Rational(0)));
}

RC_GTEST_PROP(DenotationalEval, PolynomialDerivativesAreExact, (int k0, int k1, int k2, int at)) {
  // d/dx (k0 + k1 x + k2 x^2) = k1 + 2 k2 x, exactly, also at every nesting depth.
  std::string poly =
      std::to_string(k0) + " + " + std::to_string(k1) + " * x + " + std::to_string(k2) + " * x * x";
  std::string prog = "grad[a](x: real. " + poly + ")";
  Meaning m = den<Rational>(prog, {{"a", std::to_string(at)}});
  RC_ASSERT(m.text == ScalarTraits<Rational>::to_text(Rational(k1) + 2 * Rational(k2) * at));
  Meaning second = den<Rational>("grad[a](y: real. grad[y](x: real. " + poly + "))",
                                 {{"a", std::to_string(at)}});
  RC_ASSERT(second.text == ScalarTraits<Rational>::to_text(2 * Rational(k2)));
}

}  // namespace
}  // namespace adlang
