// Symbolic evaluation (tracing): one test per rule of Fig. 4 (values and redexes) and Fig. 5
// (contexts) on printed traces, golden traces of the examples, and properties on random
// programs: type safety of traces and results (Prop. 3.6) and interpolation (Prop. 3.5).
#include "semantics/symbolic_eval.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "ad/linear_reverse_deriv.hpp"
#include "checker/rapidcheck_generators.hpp"
#include "lang/alpha.hpp"
#include "lang/free_vars.hpp"
#include "lang/parser.hpp"
#include "lang/printer.hpp"
#include "lang/term_size.hpp"
#include "lang/type_checker.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/ordinary_eval.hpp"
#include "support/stack.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::trace;

// phi | rho |- V ~> V: free variables stay symbolic.
TEST(SymbolicEval, ValueRule) {
  EXPECT_EQ(trace("(x, (1, *))", {{"x", "2"}}), "(x, (1, *))");
}

// V + W ~> V + W
TEST(SymbolicEval, AdditionRule) {
  EXPECT_EQ(trace("x + 1", {{"x", "2"}}), "x + 1");
}

// op(V) ~> op(V)
TEST(SymbolicEval, OperationRule) {
  EXPECT_EQ(trace("sin(x)", {{"x", "2"}}), "sin(x)");
}

// let x:T = V in N ~> let x:T = V in C
TEST(SymbolicEval, LetRule) {
  EXPECT_EQ(trace("let y: real = x in y * y", {{"x", "2"}}), "let y: real = x in\ny * y");
}

// fst(V) ~> fst(V), snd(V) ~> snd(V)
TEST(SymbolicEval, ProjectionRules) {
  EXPECT_EQ(trace("fst (x, 1)", {{"x", "2"}}), "fst (x, 1)");
  EXPECT_EQ(trace("snd p", {{"p", "(1, 2)"}}), "snd p");
}

// if true then M else N ~> C if M ~> C (and false/N): the conditional disappears.
TEST(SymbolicEval, ConditionalRules) {
  EXPECT_EQ(trace("if true then x else 0", {{"x", "2"}}), "x");
  EXPECT_EQ(trace("if false then x else sin(x)", {{"x", "2"}}), "sin(x)");
}

// letrec f(x:T):U = M in N ~> C if N ~> C under phi[clo/f]
TEST(SymbolicEval, LetrecRule) {
  EXPECT_EQ(trace("letrec f(y: real): real = y in x", {{"x", "2"}}), "x");
}

// f(V) ~> let x:T = V in C: the call disappears, its argument is let-bound.
TEST(SymbolicEval, ApplicationRule) {
  EXPECT_EQ(trace("def sq(y: real): real = y * y; sq(x)", {{"x", "2"}}),
            "let y: real = x in\ny * y");
}

// W.rd_V(x:T. N) ~> W.R_V(x:T. C)
TEST(SymbolicEval, DifferentiationRule) {
  test::expect_golden("traces/rd_redex.txt", trace("1.rd[x](y: real. sin(y))", {{"x", "2"}}));
}

// Fig. 5: E[R] ~> let x:T_V = C in D (E non-trivial): a redex in a context is let-bound.
TEST(SymbolicEval, ContextRule) {
  EXPECT_EQ(trace("sin(x) + cos(x)", {{"x", "2"}}),
            "let x_1: real = sin(x) in\nlet x_2: real = cos(x) in\nx_1 + x_2");
  EXPECT_EQ(trace("(sin(x), 1)", {{"x", "2"}}), "let x_1: real = sin(x) in\n(x_1, 1)");
}

// Fig. 5: E[R_bool] ~> C if R_bool => V_bool and E[V_bool] ~> C: guards leave no trace, but
// the redexes computing their arguments do.
TEST(SymbolicEval, BooleanContextRule) {
  EXPECT_EQ(trace("if x * 2 < 3 then x else 0", {{"x", "1"}}), "let x_1: real = x * 2 in\nx");
}

TEST(SymbolicEval, CallsInContextsNestTheirTraces) {
  test::expect_golden(
      "traces/call_in_context.txt",
      trace("def f(y: real): real = if y < 0 then 0 else y * sin(y);\nf(x) + x", {{"x", "0.5"}}));
}

TEST(SymbolicEval, RecursionUnrollsIntoTheTrace) {
  test::expect_golden(
      "traces/countdown.txt",
      trace("def pow(p: real * real): real =\n"
            "  let (b: real, k: real) = p in if k < 0.5 then 1 else b * pow(b, k - 1);\n"
            "pow(x, 2)",
            {{"x", "3"}}));
}

TEST(SymbolicEval, TracesOfThePaperExamples) {
  test::expect_golden("traces/nested_rd.txt",
                      trace("1.rd[1](x: real. x * 1.rd[1](y: real. x + y))"));
}

TEST(SymbolicEval, UndefinedGuardsAreReported) {
  EXPECT_EQ(trace("if x < 0 then 0 else x", {{"x", "0"}}).substr(0, 25),
            "undefined: the comparison");
}

// A call reached again through calls in the trivial context, with the same closure and the same
// argument, repeats forever: undefined at that call (semantics/repeated_call.hpp). Arguments
// compare to the bit: f(2, 0) and f(2, -0) are different calls, so the loop between them is
// found when f(2, 0) comes round again (Brent's saved call is f(2, 0) from the third call on).
TEST(SymbolicEval, RepeatedCallsAreUndefined) {
  const char* fixed =
      "def f(p: real * real): real = let (k: real, y: real) = p in\n"
      "  if k < 0.5 then y else f(2, y * 0);\n"
      "f(n, x)";
  EXPECT_EQ(trace(fixed, {{"n", "3"}, {"x", "1"}}),
            "undefined: 'f' is called again with the same argument (2, 0) by the calls in tail "
            "position that followed this call: the evaluation repeats forever");
  const char* sign =
      "def f(p: real * real): real = let (k: real, y: real) = p in\n"
      "  if k < 0.5 then y else f(2, -y);\n"
      "f(n, x)";
  EXPECT_EQ(trace(sign, {{"n", "3"}, {"x", "0"}}).substr(0, 60),
            "undefined: 'f' is called again with the same argument (2, 0)");
  // A countdown never repeats a call.
  EXPECT_EQ(trace(fixed, {{"n", "0.25"}, {"x", "1"}}).find("undefined"), std::string::npos);
}

// The trace of one outermost rd redex (its body, with the rds nested in it) is bounded by
// max_rd_trace_nodes (--max-rd-trace): a loop inside a derivative that does not end is
// undefined at that rd. The count is per outermost redex, not per run: two rds side by side,
// each within the bound, answer although their traces together exceed it.
TEST(SymbolicEval, TheTraceOfOneDerivativeIsBounded) {
  const std::string loop =
      "def loop(p: real * real): real =\n"
      "  let (k: real, y: real) = p in if k < 0.5 then y else loop(k - 1, sin(y));\n";
  // The steps of the run, and those counted toward the last outermost rd's bound.
  auto steps = [&](const std::string& main, std::uint64_t bound) {
    test::Checked c = test::check(loop + main, {{"n", "100"}, {"x", "0.5"}});
    ValueEnv<double> rho;
    rho.push(Name("n"), Value<double>{100});
    rho.push(Name("x"), Value<double>{0.5});
    EvalOptions o;
    use_ad(o, AdMode::Linear);  // Fig. 6's R is exponential in the loop's nested lets
    o.max_rd_trace_nodes = bound;
    EvalContext cx(o, c.names);
    symbolic_eval(c.term, rho, nullptr, cx);
    return std::pair{cx.trace_nodes, cx.trace_nodes - cx.rd_trace_start};
  };
  // "1.rd" is at line 3, its rd at column 3.
  const std::string one = "1.rd[x](y: real. loop(n, y))";
  const std::uint64_t body = steps(one, UINT64_MAX).second;
  EXPECT_GT(body, 300u);
  EXPECT_EQ(steps(one, body).second, body);
  // Two side by side: each within the bound, together beyond it.
  EXPECT_GT(steps("(" + one + ", " + one + ")", body).first, 2 * body);
  try {
    steps(one, body - 1);
    ADD_FAILURE() << "no undefinedness";
  } catch (const Undefined& e) {
    EXPECT_EQ(e.kind(), UndefinedKind::TraceSize);
    EXPECT_EQ(std::string(e.what()),
              "the trace of this derivative has more than " + std::to_string(body - 1) + " steps");
    EXPECT_EQ(e.loc(), (SourceLoc{3, 3}));
    ASSERT_EQ(e.notes().size(), 1u);
    EXPECT_NE(e.notes()[0].find("--max-rd-trace N"), std::string::npos);
  }
  // An rd nested in another: the inner trace counts toward the outer one's, and the outer one
  // is reported.
  try {
    steps("1.rd[x](z: real. z * " + one + ")", body);
    ADD_FAILURE() << "no undefinedness";
  } catch (const Undefined& e) {
    EXPECT_EQ(e.kind(), UndefinedKind::TraceSize);
    EXPECT_EQ(e.loc(), (SourceLoc{3, 3}));
  }
}

// A loop written as tail recursion traces without recursing on the C++ stack: 20,000 steps on
// this thread's ordinary stack (8 MiB; each step nests the trace one call deeper), then the
// linear R and the compiled evaluator on the trace, also iterative along let chains.
TEST(SymbolicEval, TailRecursiveLoopsTraceInConstantStack) {
  const char* loop =
      "def loop(p: real * real): real =\n"
      "  let (k: real, y: real) = p in\n"
      "  if k < 0.5 then y else loop(k - 1, sin(y) * 1.0001 + y * y * 0.000001);\n"
      "loop(n, y)";
  test::Checked c = test::check(loop, {{"n", "20000"}, {"y", "0.5"}});
  ValueEnv<double> rho;
  rho.push(Name("n"), Value<double>{20000});
  rho.push(Name("y"), Value<double>{0.5});
  EvalOptions o;
  o.evaluator = Evaluator::Compiled;
  EvalContext cx(o, c.names);
  Traced<double> t = symbolic_eval(c.term, rho, nullptr, cx);
  EXPECT_EQ(term_size(t.trace).tree, 43.0 * 20000 + 17);  // 12 lets a step, as the golden trace
  EXPECT_EQ(compiled_eval(t.trace, rho, cx), t.value);
  Term d = linear_reverse_deriv(mk::literal("1"), mk::literal("0.5"), Name("y"), Type::real(),
                                t.trace, c.names);
  Value<double> g = compiled_eval(d, rho, cx);
  double y = 0.5, dy = 1;  // the derivative by the chain rule, in C++
  for (int k = 0; k < 20000; ++k) {
    dy = dy * (std::cos(y) * 1.0001 + 2 * y * 0.000001);
    y = std::sin(y) * 1.0001 + y * y * 0.000001;
  }
  EXPECT_NEAR(g[0], dy, 1e-12 * std::abs(dy) + 1e-300);
}

// ---- properties ----

EvalOptions small_budgets() {
  EvalOptions o;
  o.fuel = 2000;
  o.max_trace_nodes = 200000;
  o.max_derivative_steps = 200000;
  return o;
}

struct Outcome {
  std::optional<Value<double>> value;
  std::optional<UndefinedKind> undefined;
};

template <class F>
Outcome outcome(F&& f) {
  Outcome o;
  try {
    o.value = f();
  } catch (const Undefined& e) {
    o.undefined = e.kind();
  }
  return o;
}

ValueEnv<double> env_of(const gen::GeneratedProgram& p) {
  ValueEnv<double> rho;
  for (std::size_t i = 0; i < p.inputs.size(); ++i)
    rho.push(p.inputs[i].name, parse_value<double>(p.input_values[i]).value);
  return rho;
}

bool resource_limit(const std::optional<UndefinedKind>& k) {
  return k && (*k == UndefinedKind::TraceSize || *k == UndefinedKind::Depth);
}

// Prop. 3.5: M => V iff (M ~> C and C => V).
RC_GTEST_PROP(SymbolicEval, InterpolationProp35, ()) {
  gen::GeneratedProgram p = *gen::program(gen::GenConfig{});
  NameSupply names;
  reserve_names(p.term, names);
  Outcome direct, traced;
  run_on_large_stack([&] {
    direct = outcome([&] {
      ValueEnv<double> rho = env_of(p);
      EvalContext cx(small_budgets(), names);
      return ordinary_eval(p.term, rho, nullptr, cx);
    });
    traced = outcome([&] {
      ValueEnv<double> rho = env_of(p);
      EvalContext cx(small_budgets(), names);
      Term c = symbolic_eval(p.term, rho, nullptr, cx).trace;
      EvalContext cx2(small_budgets(), names);
      return ordinary_eval(c, rho, nullptr, cx2);
    });
  });
  RC_PRE(!resource_limit(direct.undefined) && !resource_limit(traced.undefined));
  RC_ASSERT(direct.value.has_value() == traced.value.has_value());
  if (direct.value) RC_ASSERT(*direct.value == *traced.value);
}

// Prop. 3.6: a trace of M : T is a trace term with Gamma |- C : T (checked by printing it
// and type-checking it from scratch), and a value of M : T is a value of type T.
RC_GTEST_PROP(SymbolicEval, TypeSafetyProp36, ()) {
  gen::GeneratedProgram p = *gen::program(gen::GenConfig{});
  NameSupply names;
  reserve_names(p.term, names);
  std::optional<Traced<double>> t;
  run_on_large_stack([&] {
    ValueEnv<double> rho = env_of(p);
    EvalContext cx(small_budgets(), names);
    try {
      t = symbolic_eval(p.term, rho, nullptr, cx);
    } catch (const Undefined&) {
    }
  });
  RC_PRE(t.has_value());
  RC_ASSERT(is_trace_term(t->trace));
  RC_ASSERT(t->trace.type() == p.term.type());
  SyntaxProgram s = parse_program(print_term(t->trace));
  NameSupply fresh;
  Term back = check_program(s, p.inputs, fresh);
  RC_ASSERT(alpha_equivalent(back, t->trace));
  ParsedValue<double> v = parse_value<double>(print_value<double>(p.term.type(), t->value));
  RC_ASSERT(v.type == p.term.type());
}

}  // namespace
}  // namespace adlang
