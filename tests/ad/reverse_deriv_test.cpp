// The paper's R (Fig. 6): one test per clause on printed output, and properties on random
// trace terms: R's output type-checks (Prop. 3.3) and agrees with central finite differences
// computed in 50-digit arithmetic (Thm. 6.1).
#include "ad/reverse_deriv.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "checker/numerics.hpp"
#include "checker/rapidcheck_generators.hpp"
#include "lang/alpha.hpp"
#include "lang/free_vars.hpp"
#include "lang/parser.hpp"
#include "lang/printer.hpp"
#include "lang/type_checker.hpp"
#include "semantics/ordinary_eval.hpp"
#include "semantics/undefined.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::Derivative;

// W.R_V(x:T. C) by Fig. 6's R (see test::derivative).
Derivative r(const std::string& w, const std::string& v, const std::string& t,
             const std::string& c) {
  return test::derivative(&reverse_deriv, w, v, t, c);
}

// W.R_V(x:T. y) = W (y = x)
TEST(ReverseDeriv, VariableClauseSameVariable) {
  Derivative d = r("2", "5", "real", "x");
  EXPECT_EQ(d.text, "2");
  EXPECT_EQ(d.value, "2");
}

// W.R_V(x:T. y) = 0_T (y != x)
TEST(ReverseDeriv, VariableClauseOtherVariable) {
  Derivative d = r("2", "(5, 6)", "real * real", "y");
  EXPECT_EQ(d.text, "(0, 0)");
}

// W.R_V(x:T. r) = 0_T
TEST(ReverseDeriv, ConstantClause) {
  EXPECT_EQ(r("1", "(5, *)", "real * unit", "7").text, "(0, *)");
}

// W.R_V(x:T. D + E) = W.R_V(x:T. D) +_T W.R_V(x:T. E)
TEST(ReverseDeriv, AdditionClause) {
  Derivative d = r("1", "5", "real", "x + y");
  EXPECT_EQ(d.text, "1 + 0");
  test::expect_golden("reverse_deriv/addition_pair.txt",
                      r("1", "(5, 6)", "real * real", "fst x + snd x").text);
}

// W.R_V(x:T. op(D)) = let x:T = V in let y:S = W.op_r(D) in y.R_V(x:T. D)
TEST(ReverseDeriv, OperationClause) {
  Derivative d = r("1", "0.5", "real", "sin(x)");
  EXPECT_EQ(d.text, "let x: real = 0.5 in\nlet y_1: real = 1 * cos(x) in\ny_1");
  EXPECT_EQ(d.value, "0.8775825618903728");  // cos(0.5)
}

// W.R_V(x:T. let y:S = D in E) = let x:T = V in let y:S = D in
//   W.R_V(x:T. E) +_T (let yb:S = W.R_y(y:S. E) in yb.R_V(x:T. D))
TEST(ReverseDeriv, LetClause) {
  Derivative d = r("1", "2", "real", "let z: real = x * x in z * x");
  test::expect_golden("reverse_deriv/let_clause.txt", d.text);
  EXPECT_EQ(d.value, "12");  // d/dx x^3 = 3x^2 at 2
}

// W.R_V(x:T. *) = 0_T
TEST(ReverseDeriv, UnitClause) {
  EXPECT_EQ(r("*", "5", "real", "*").text, "0");
}

// W.R_V(x:T. <D, E>) = let <y:U, z:S> = W in y.R_V(x:T. D) +_T z.R_V(x:T. E)
TEST(ReverseDeriv, PairClause) {
  Derivative d = r("(1, 10)", "2", "real", "(x, x * y)");
  test::expect_golden("reverse_deriv/pair_clause.txt", d.text);
  EXPECT_EQ(d.value, "31");  // 1 * 1 + 10 * y with y = 3
}

// W.R_V(x:T. fst(D)) = let x:T = V in let y:U*S = D in <W, 0_S>.R_V(x:T. D)
TEST(ReverseDeriv, FstClause) {
  Derivative d = r("1", "(2, 3)", "real * real", "fst x");
  test::expect_golden("reverse_deriv/fst_clause.txt", d.text);
  EXPECT_EQ(d.value, "(1, 0)");
}

// W.R_V(x:T. snd(D)) = let x:T = V in let y:U*S = D in <0_U, W>.R_V(x:T. D)
TEST(ReverseDeriv, SndClause) {
  Derivative d = r("1", "(2, 3)", "real * real", "snd x");
  test::expect_golden("reverse_deriv/snd_clause.txt", d.text);
  EXPECT_EQ(d.value, "(0, 1)");
}

TEST(ReverseDeriv, DifferentiationVariableIsRenamedWhenThePointMentionsIt) {
  // x occurs free in V: the side condition x not in FV(V) forces a rename.
  NameSupply names;
  Term x = mk::var(Name("x"), Type::real());
  Term c = mk::op(Op::make(OpKind::Mul), x, x);
  Term d = reverse_deriv(mk::literal("1"), x, Name("x"), Type::real(), c, names);
  EXPECT_EQ(test::run_term(d, names, {{"x", "3"}}), "6");
  EXPECT_FALSE(occurs_free(Name("x_1"), d));
}

TEST(ReverseDeriv, ShadowingLetsAreRenamedApartFirst) {
  // let z = x in let z = z * z in z: binders shadow; R must rename before differentiating.
  Derivative d = r("1", "3", "real", "let z: real = x in let z: real = z * z in z");
  EXPECT_EQ(d.value, "6");
}

TEST(ReverseDeriv, TheLetClauseDoublesTheWork) {
  // A chain of n lets costs about 2^n clause applications (the paper's R, measured).
  auto steps = [](int n) {
    std::string c = "x";
    for (int i = n; i-- > 0;)
      c = "let x: real = sin(x) in " + c;
    NameSupply names;
    Term ct = test::check(c, {{"x", "1"}}).term;
    ReverseDerivStats stats;
    reverse_deriv(mk::literal("1"), mk::literal("1"), Name("x"), Type::real(), ct, names,
                  UINT64_MAX, &stats);
    return stats.clause_steps;
  };
  EXPECT_GT(steps(10), 2 * steps(9) - 10);
}

TEST(ReverseDeriv, StepBudgetStopsRunawayDerivatives) {
  std::string c = "x";
  for (int i = 0; i < 40; ++i)
    c = "let x: real = sin(x) in " + c;
  NameSupply names;
  Term ct = test::check(c, {{"x", "1"}}).term;
  EXPECT_THROW(
      reverse_deriv(mk::literal("1"), mk::literal("1"), Name("x"), Type::real(), ct, names, 100000),
      DerivativeTooLarge);
}

// ---- properties on random trace terms ----

struct RandomDerivative {
  Type t;  // type of x
  Term c;  // trace term, free x : t and y : real
  std::string v_text, w_text, y_text;
};

rc::Gen<RandomDerivative> random_derivative() {
  return rc::gen::exec([] {
    RandomDerivative rd;
    rd.t = *rc::gen::element(Type::real(), Type::pair(Type::real(), Type::real()),
                             Type::pair(Type::real(), Type::unit()));
    Type u = *rc::gen::element(Type::real(), Type::pair(Type::real(), Type::real()));
    gen::GenConfig cfg;
    cfg.max_depth = 4;
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

// Prop. 3.3: Gamma[x:T] |- C : U, V : T, W : U give Gamma |- W.R_V(x:T. C) : T. Checked by
// printing R's output and type-checking it from scratch under Gamma = y : real.
RC_GTEST_PROP(ReverseDeriv, OutputTypeChecksProp33, ()) {
  RandomDerivative rd = *random_derivative();
  NameSupply names;
  Term d = reverse_deriv(closed_value(rd.w_text, names), closed_value(rd.v_text, names), Name("x"),
                         rd.t, rd.c, names);
  RC_ASSERT(d.type() == rd.t);
  std::string text = print_term(d);
  SyntaxProgram p = parse_program(text);
  NameSupply fresh;
  Term back = check_program(p, {{Name("y"), Type::real()}}, fresh);
  RC_ASSERT(back.type() == rd.t);
  RC_ASSERT(alpha_equivalent(back, d));
}

// The step budget is refused before R starts exactly when R would exceed it: a budget of the
// steps R takes (counted by R itself) is enough, one step fewer is not.
RC_GTEST_PROP(ReverseDeriv, TheBudgetIsRefusedExactlyWhenRWouldExceedIt, ()) {
  RandomDerivative rd = *random_derivative();
  NameSupply names;
  const Term w = closed_value(rd.w_text, names), v = closed_value(rd.v_text, names);
  ReverseDerivStats stats;
  const Term d = reverse_deriv(w, v, Name("x"), rd.t, rd.c, names, UINT64_MAX, &stats);
  const std::uint64_t steps = stats.clause_steps;
  RC_ASSERT(steps >= 1u);
  ReverseDerivStats exact;
  RC_ASSERT(alpha_equivalent(reverse_deriv(w, v, Name("x"), rd.t, rd.c, names, steps, &exact), d));
  RC_ASSERT(exact.clause_steps == steps);
  bool refused = false;
  try {
    reverse_deriv(w, v, Name("x"), rd.t, rd.c, names, steps - 1);
  } catch (const DerivativeTooLarge&) {
    refused = true;
  }
  RC_ASSERT(refused);
}

// The value of W.R_V(x:T. C), or nullopt where undefined, in 50 digits.
std::optional<Value<Mpfr50>> eval50(const Term& t, NameSupply& names,
                                    const std::vector<std::pair<Name, Value<Mpfr50>>>& env) {
  ValueEnv<Mpfr50> rho;
  for (const auto& [n, v] : env)
    rho.push(n, v);
  EvalContext cx(EvalOptions{}, names);
  try {
    return ordinary_eval(t, rho, nullptr, cx);
  } catch (const Undefined&) {
    return std::nullopt;
  }
}

// Thm. 6.1: [[W.R_V(x:T. C)]] = d^r at V of (x |-> [[C]]) applied to W, against central
// differences <W, C(V + h e_i) - C(V - h e_i)> / 2h in 50-digit arithmetic. The quotient's
// truncation error is O(h^2) times C's third derivative, which is large where C is steep
// (sin(exp(dot_2(x, x))) at (-2, 3): about 1e16), so it is computed at the two steps of
// checker/numerics.hpp and used only when the two agree (it has converged), with that module's
// tolerances, as the checker's finite-differences property does.
RC_GTEST_PROP(ReverseDeriv, AgreesWithFiniteDifferencesIn50Digits, ()) {
  RandomDerivative rd = *random_derivative();
  NameSupply names;
  Term d = reverse_deriv(closed_value(rd.w_text, names), closed_value(rd.v_text, names), Name("x"),
                         rd.t, rd.c, names);
  Value<Mpfr50> v = parse_value<Mpfr50>(rd.v_text).value;
  Value<Mpfr50> w = parse_value<Mpfr50>(rd.w_text).value;
  Value<Mpfr50> y = parse_value<Mpfr50>(rd.y_text).value;
  auto grad = eval50(d, names, {{Name("y"), y}});
  auto at_v = eval50(rd.c, names, {{Name("x"), v}, {Name("y"), y}});
  RC_PRE(at_v.has_value());  // R's output is defined exactly where C is (at V)
  RC_ASSERT(grad.has_value());
  for (std::size_t i = 0; i < v.size(); ++i) {
    // The scalar function s |-> <W, C(V + s e_i)>.
    auto along = [&](const Mpfr50& s) -> std::optional<Value<Mpfr50>> {
      Value<Mpfr50> at = v;
      at[i] += s;
      auto f = eval50(rd.c, names, {{Name("x"), at}, {Name("y"), y}});
      if (!f) return std::nullopt;
      Mpfr50 dot = 0;
      for (std::size_t j = 0; j < w.size(); ++j)
        dot += w[j] * (*f)[j];
      return Value<Mpfr50>{dot};
    };
    auto fd = checker::numerics::central_differences<Mpfr50>(along);
    RC_PRE(fd.has_value());
    RC_PRE(checker::numerics::converged(*fd));
    RC_ASSERT(checker::numerics::matches_central_difference((*grad)[i], (*fd)[1][0]));
  }
}

}  // namespace
}  // namespace adlang
