// The compiled evaluator (semantics/compiled_eval.hpp) against the reference ordinary
// evaluator: unit tests for what the compilation changes (slots, aliases, tail calls, the heap
// control stack, literals converted once) and a property on random programs from
// checker/program_generator: the same value bit for bit, or the same kind of undefinedness at
// the same location.
#include "semantics/compiled_eval.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ad/linear_reverse_deriv.hpp"
#include "checker/rapidcheck_generators.hpp"
#include "lang/free_vars.hpp"
#include "semantics/compiled/compiler.hpp"
#include "semantics/ordinary_eval.hpp"
#include "support/stack.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

EvalOptions compiled_options() {
  EvalOptions o;
  o.evaluator = Evaluator::Compiled;
  return o;
}

// Runs `program` with the compiled evaluator: the printed value or "undefined: <reason>".
template <class S = double>
std::string run_compiled(const std::string& program, const test::Env& env = {},
                         EvalOptions options = compiled_options()) {
  test::Checked c = test::check(program, env);
  ValueEnv<S> rho;
  for (const auto& [name, text] : env)
    rho.push(Name(name), parse_value<S>(text).value);
  EvalContext cx(options, c.names);
  try {
    return print_value<S>(c.term.type(), compiled_eval(c.term, rho, cx));
  } catch (const Undefined& e) {
    return std::string("undefined: ") + e.what();
  }
}

// The compiler's scopes take their name tables from the tables of scopes that ended on their
// thread: a table comes back with none of the names it held, however large it grew.
TEST(CompiledEval, ScopesNameTablesComeBackEmpty) {
  std::vector<Name> names;
  for (int i = 0; i < 5000; ++i)
    names.push_back(Name("kept_table_" + std::to_string(i)));
  for (int round = 0; round < 3; ++round) {
    {
      compiled::NameIndex first, second;  // two scopes open at once, as a function body's is
      for (std::size_t i = 0; i < names.size(); ++i) {
        EXPECT_EQ(first.find(names[i]), -1);
        EXPECT_EQ(first.set(names[i], static_cast<std::int32_t>(i)), -1);
        EXPECT_EQ(second.set(names[i], 7), -1);
      }
      EXPECT_EQ(first.set(names[10], 99), 10);  // shadows the binding it replaces
      EXPECT_EQ(first.find(names[10]), 99);
      EXPECT_EQ(second.find(names[4999]), 7);
    }
    compiled::NameIndex next;
    for (const Name& n : names)
      EXPECT_EQ(next.find(n), -1);
    EXPECT_EQ(next.set(names[0], 3), -1);
    for (std::size_t i = 1; i < names.size(); ++i)
      EXPECT_EQ(next.find(names[i]), -1);
  }
}

TEST(CompiledEval, Arithmetic) {
  EXPECT_EQ(run_compiled("1 + 2 * 3 - 4 / 8"), "6.5");
  EXPECT_EQ(run_compiled("-x + sin(0)", {{"x", "2"}}), "-2");
  EXPECT_EQ(run_compiled("dot_2((1, 2), (3, 4))"), "11");
  EXPECT_EQ(run_compiled("scale_3(2, (1, 2, 3))"), "(2, 4, 6)");
}

TEST(CompiledEval, TuplesLetsAndProjections) {
  EXPECT_EQ(run_compiled("let (a: real, b: real, c: real) = v in (c, b, a)", {{"v", "(1, 2, 3)"}}),
            "(3, 2, 1)");
  EXPECT_EQ(run_compiled("let p: real * real = (1, 2) in let q: real = fst p in (snd p, q, *)"),
            "(2, 1, *)");
  EXPECT_EQ(run_compiled("fst (1 + 1, 3) + snd (fst ((4, 5), 6))"), "7");
  EXPECT_EQ(run_compiled("let x: real = 1 in let x: real = x + 1 in x * 10"), "20");
}

TEST(CompiledEval, RecursionAndTailCalls) {
  const char* fib =
      "def fib(n: real): real = if n < 1.5 then n else fib(n - 1) + fib(n - 2);\n"
      "fib(n)";
  EXPECT_EQ(run_compiled(fib, {{"n", "20"}}), "6765");
  const char* mutual =
      "def female(n: real): real = if n < 0.5 then 1 else n - male(female(n - 1));\n"
      "def male(n: real): real = if n < 0.5 then 0 else n - female(male(n - 1));\n"
      "(female(n), male(n))";
  EXPECT_EQ(run_compiled(mutual, {{"n", "10"}}), "(6, 6)");
  const char* local =
      "letrec pow(e: real * real): real =\n"
      "  let (b: real, k: real) = e in if k < 0.5 then 1 else b * pow(b, k - 1)\n"
      "in pow(2, 10)";
  EXPECT_EQ(run_compiled(local), "1024");
}

// The control stack is on the heap: a million nested (non-tail) calls on this thread's
// ordinary stack, which the reference evaluator could not do.
TEST(CompiledEval, MillionDeepRecursionNeedsNoLargeStack) {
  const char* count =
      "def count(n: real): real = if n < 0.5 then 0 else 1 + count(n - 1);\n"
      "count(n)";
  EXPECT_EQ(run_compiled(count, {{"n", "1000000"}}), "1000000");
  const char* loop =
      "def loop(p: real * real): real =\n"
      "  let (k: real, y: real) = p in\n"
      "  if k < 0.5 then y else loop(k - 1, sin(y) * 1.0001 + y * y * 0.000001);\n"
      "loop(n, 0.5)";
  double y = 0.5;  // the same operations in the same order, in C++
  for (int k = 0; k < 1000000; ++k)
    y = std::sin(y) * 1.0001 + y * y * 0.000001;
  EXPECT_EQ(run_compiled(loop, {{"n", "1000000"}}), ScalarTraits<double>::to_text(y));
}

TEST(CompiledEval, FuelIsCountedAndReported) {
  EvalOptions o = compiled_options();
  o.fuel = 100;
  const char* forever = "def f(x: real): real = f(x + 1);\nf(0)";
  EXPECT_EQ(run_compiled(forever, {}, o), "undefined: out of fuel after 100 function calls in 'f'");
  EXPECT_EQ(test::run<double>(forever, {}, o), run_compiled(forever, {}, o));
}

TEST(CompiledEval, UndefinednessHasTheReferenceReasons) {
  for (const char* p : {"log(0)", "1 / (x - x)", "if x < 1 then 0 else 1", "exp(1000)",
                        "1e300 * 1e300", "1e308 + 1e308", "sqrt(-x)"}) {
    EXPECT_EQ(run_compiled(p, {{"x", "1"}}), test::run<double>(p, {{"x", "1"}})) << p;
  }
}

// A literal outside the precision's range is undefined only where it is evaluated.
TEST(CompiledEval, LiteralsAreConvertedOnceButFailOnlyWhenEvaluated) {
  EXPECT_EQ(run_compiled("if x < 0 then 1e400 else 2", {{"x", "1"}}), "2");
  EXPECT_EQ(run_compiled("if x < 0 then 1e400 else 2", {{"x", "-1"}}).substr(0, 24),
            "undefined: the literal 1");
}

TEST(CompiledEval, DifferentiationInsideFunctions) {
  const char* own =
      "def dsin(p: real * real): real =\n"
      "  let (n: real, x: real) = p in\n"
      "  if n < 0.5 then sin(x) else 1.rd[x](y: real. dsin(n - 1, y));\n"
      "dsin(1, x)";
  EXPECT_EQ(run_compiled(own, {{"x", "0.5"}}), test::run<double>(own, {{"x", "0.5"}}));
  EXPECT_EQ(run_compiled("1.rd[1](x: real. x * 1.rd[1](y: real. x + y))"), "1");
  EXPECT_EQ(run_compiled("let a: real = 3 in (1, 0).rd[x](t: real. (t * a, t))", {{"x", "2"}}),
            "3");
}

// The compiled evaluator with the tape, and the reference evaluator with the linear R.
EvalOptions tape_options() {
  EvalOptions o = compiled_options();
  use_ad(o, AdMode::Tape);
  return o;
}
EvalOptions linear_reference_options() {
  EvalOptions o;
  use_ad(o, AdMode::Linear);
  return o;
}

// With the linear R, rd redexes take the fast path (a tape and a reverse sweep) unless their
// body differentiates again; either way the value is that of the reference evaluator running
// symbolic evaluation, the linear R and the evaluation of R's output.
TEST(CompiledEval, FastRdPathAgreesWithTheSymbolicPath) {
  const EvalOptions fast = tape_options(), reference = linear_reference_options();
  const char* own =
      "def dsin(p: real * real): real =\n"
      "  let (n: real, x: real) = p in\n"
      "  if n < 0.5 then sin(x) else 1.rd[x](y: real. dsin(n - 1, y));\n"
      "dsin(n, x)";
  for (const char* n : {"1", "2", "4"}) {
    test::Env env = {{"n", n}, {"x", "0.5"}};
    EXPECT_EQ(run_compiled(own, env, fast), test::run<double>(own, env, reference)) << n;
  }
  const char* loop =
      "def loop(p: real * real): real =\n"
      "  let (k: real, y: real) = p in\n"
      "  if k < 0.5 then y else loop(k - 1, sin(y) * 1.0001 + y * y * 0.000001);\n"
      "(grad[y0](y: real. loop(n, y)), (1, 2).rd[(y0, 3)](q: real * real.\n"
      "  (loop(5, fst q) * snd q, dot_2(q, q) / snd q)))";
  test::Env env = {{"n", "300"}, {"y0", "0.5"}};  // the reference recurses along the trace
  std::string expect;
  run_on_large_stack([&] { expect = test::run<double>(loop, env, reference); });
  EXPECT_EQ(run_compiled(loop, env, fast), expect);
  // Undefined inside the body: the symbolic path reports it, with its location.
  const char* bad = "grad[x](y: real. log(y - 1))";
  EXPECT_EQ(run_compiled(bad, {{"x", "1"}}, fast), test::run<double>(bad, {{"x", "1"}}, reference));
  EvalOptions little_fuel = fast;
  little_fuel.fuel = 50;
  EvalOptions little_fuel_ref = reference;
  little_fuel_ref.fuel = 50;
  EXPECT_EQ(run_compiled(loop, env, little_fuel), test::run<double>(loop, env, little_fuel_ref));
}

// The tape keeps an unsized operator's operands' ids in its entry and a sized operator's (dot_n,
// scale_n) in runs on a stack beside the entries, and the values both read in runs on one stack
// of values (semantics/compiled/tape.hpp): a body that alternates the two, long enough that every
// stack spans several blocks, agrees with the symbolic path in double and in 50 digits (scalars
// that are not trivially copied).
TEST(CompiledEval, TapeEntriesAndSizedRunsInterleave) {
  const EvalOptions fast = tape_options(), reference = linear_reference_options();
  const char* mix =
      "def mix(p: real * (real * real)): real * real =\n"
      "  let (k: real, q: real * real) = p in\n"
      "  if k < 0.5 then q else\n"
      "  let (a: real, b: real) = q in\n"
      "  let s: real * real = scale_2(0.5 * sin(a), (b, a - b)) in\n"
      "  mix(k - 1, (dot_2(s, q) * 0.25 + cos(b), snd s - 0.001 * a * a));\n"
      "(1, 0.5).rd[(x, y)](q: real * real. mix(n, q))";
  test::Env env = {{"n", "400"}, {"x", "0.75"}, {"y", "-0.5"}};
  std::string expect, expect50;
  run_on_large_stack([&] {
    expect = test::run<double>(mix, env, reference);
    expect50 = test::run<Mpfr50>(mix, env, reference);
  });
  EXPECT_EQ(expect.find("undefined"), std::string::npos) << expect;
  EXPECT_EQ(run_compiled(mix, env, fast), expect);
  EXPECT_EQ(run_compiled<Mpfr50>(mix, env, fast), expect50);
}

// One machine and one tape run every derivative of an rd site (docs/performance.md Sec. 5): its
// inputs are copied anew from the point, the caller's frame and rho at each derivative, and a
// derivative that leaves the tape mid-run (here an rd nested inside a call, at k = 2) takes the
// symbolic path without disturbing the next ones, which tape again.
TEST(CompiledEval, OneRdSiteDifferentiatedManyTimesAgreesWithTheSymbolicPath) {
  const EvalOptions fast = tape_options(), reference = linear_reference_options();
  const char* descent =
      "def f(p: real * real): real =\n"
      "  let (a: real, y: real) = p in\n"
      "  if a < 2.5 then if a > 1.5 then y * 1.rd[y](z: real. z * z * a) else y * a\n"
      "  else sin(y) * y * a;\n"
      "def descend(p: real * (real * real)): real * real =\n"
      "  let (k: real, w: real * real) = p in\n"
      "  if k < 0.5 then w else\n"
      "  let (w1: real, w2: real) = w in\n"
      "  let g: real = 1.rd[w1](u: real. f(k, u) * w2 + u * w1 * 1.5) in\n"
      "  descend(k - 1, (w1 - 0.01 * g, w2 + 0.001 * g));\n"
      "let top: real * real = descend(n, (x, 0.5)) in\n"
      "(top, grad[x](y: real. y * c * fst top + sin(y * x)))";
  for (const char* n : {"1", "3", "40"}) {
    test::Env env = {{"n", n}, {"x", "0.75"}, {"c", "1.5"}};
    EXPECT_EQ(run_compiled(descent, env, fast), test::run<double>(descent, env, reference)) << n;
    EXPECT_EQ(run_compiled<Mpfr50>(descent, env, fast), test::run<Mpfr50>(descent, env, reference))
        << n;
  }
}

// floor through the compiled evaluator and the tape: derivative 0 off the integers, undefined
// at an integer unless predicates are total (then TensorFlow's floor), as the reference.
TEST(CompiledEval, FloorOnTheTapeAndAtTheIntegers) {
  EvalOptions fast = compiled_options();
  use_ad(fast, AdMode::Tape);
  const char* f = "grad[x](y: real. y * floor(y) + floor(2 * y))";
  EXPECT_EQ(run_compiled(f, {{"x", "1.25"}}, fast), "1");
  EXPECT_EQ(run_compiled(f, {{"x", "1.5"}}, fast).substr(0, 41),
            "undefined: floor(x) is undefined at x = 3");
  EvalOptions total = fast;
  total.predicates = PredicateMode::Total;
  EXPECT_EQ(run_compiled(f, {{"x", "1.5"}}, total), "1");
  EXPECT_EQ(run_compiled("floor(x)", {{"x", "-2"}}, total), "-2");
}

TEST(CompiledEval, ExactAndHighPrecision) {
  EXPECT_EQ(run_compiled<Rational>("1 / 3 + 1 / 6"), "0.5");
  EXPECT_EQ(run_compiled<Rational>("1 / 3 + 0.0123"), "10369/30000");
  EXPECT_EQ(run_compiled<Mpfr50>("0.1 + 0.2"), test::run<Mpfr50>("0.1 + 0.2"));
}

// evaluate() keeps the limited language of Fig. 8 on the reference evaluator.
TEST(CompiledEval, UnfoldUsesTheReferenceEvaluator) {
  test::Checked c = test::check("def f(x: real): real = if x < 0.5 then 0 else f(x - 1);\nf(3)");
  EvalOptions o = compiled_options();
  o.unfold = 2;
  ValueEnv<double> rho;
  EvalContext cx(o, c.names);
  try {
    evaluate(c.term, rho, cx);
    FAIL() << "expected the unfolding bound to be reached";
  } catch (const Undefined& e) {
    EXPECT_EQ(e.kind(), UndefinedKind::Unfold);
  }
  o.unfold = 4;
  EvalContext cx2(o, c.names);
  EXPECT_EQ(evaluate(c.term, rho, cx2)[0], 0.0);
}

// ---- the property ----

struct Outcome {
  std::optional<std::string> value;  // printed exactly (doubles in shortest round-trip form)
  std::optional<UndefinedKind> undefined;
  SourceLoc loc;
  std::string reason;
};

template <class S, class F>
Outcome outcome(Type t, F&& f) {
  Outcome o;
  try {
    o.value = print_value<S>(t, f());
  } catch (const Undefined& e) {
    o.undefined = e.kind();
    o.loc = e.loc();
    o.reason = e.what();
  }
  return o;
}

template <class S>
ValueEnv<S> env_of(const gen::GeneratedProgram& p) {
  ValueEnv<S> rho;
  for (std::size_t i = 0; i < p.inputs.size(); ++i)
    rho.push(p.inputs[i].name, parse_value<S>(p.input_values[i]).value);
  return rho;
}

EvalOptions property_budgets(Evaluator e, AdMode ad) {
  EvalOptions o;
  o.evaluator = e;
  use_ad(o, ad);
  o.fuel = 2000;
  o.max_trace_nodes = 200000;
  o.max_derivative_steps = 200000;
  return o;
}

bool stack_limit(const Outcome& o) {
  return o.undefined && *o.undefined == UndefinedKind::Depth;
}

template <class S>
// The compiled evaluator with `ad` against the reference evaluator with the same R (the tape's
// is the linear R).
void check_agreement(const gen::GeneratedProgram& p, AdMode ad = AdMode::Paper) {
  NameSupply names;
  reserve_names(p.term, names);
  Outcome ref, fast;
  run_on_large_stack([&] {
    ref = outcome<S>(p.term.type(), [&] {
      ValueEnv<S> rho = env_of<S>(p);
      EvalContext cx(
          property_budgets(Evaluator::Reference, ad == AdMode::Tape ? AdMode::Linear : ad), names);
      return ordinary_eval(p.term, rho, nullptr, cx);
    });
    fast = outcome<S>(p.term.type(), [&] {
      ValueEnv<S> rho = env_of<S>(p);
      EvalContext cx(property_budgets(Evaluator::Compiled, ad), names);
      return compiled_eval(p.term, rho, cx);
    });
  });
  // Only the reference evaluator is bounded by the C++ stack.
  RC_PRE(!stack_limit(ref));
  RC_ASSERT(fast.value == ref.value);
  RC_ASSERT(fast.undefined == ref.undefined);
  RC_ASSERT(fast.loc == ref.loc);
  RC_ASSERT(fast.reason == ref.reason);
}

// `program` with the compiled evaluator and with the reference evaluator (with the linear R
// where the compiled one tapes), in precision S: the same value, or the same kind of
// undefinedness with the same reason at the same location.
template <class S>
void expect_agreement(const std::string& program, const test::Env& env, EvalOptions options) {
  test::Checked c = test::check(program, env);
  auto rho = [&] {
    ValueEnv<S> r;
    for (const auto& [name, text] : env)
      r.push(Name(name), parse_value<S>(text).value);
    return r;
  };
  EvalOptions reference = options;
  reference.evaluator = Evaluator::Reference;
  if (options.ad == AdMode::Tape) use_ad(reference, AdMode::Linear);
  options.evaluator = Evaluator::Compiled;
  Outcome ref, fast;
  run_on_large_stack([&] {
    ref = outcome<S>(c.term.type(), [&] {
      ValueEnv<S> r = rho();
      EvalContext cx(reference, c.names);
      return ordinary_eval(c.term, r, nullptr, cx);
    });
    fast = outcome<S>(c.term.type(), [&] {
      ValueEnv<S> r = rho();
      EvalContext cx(options, c.names);
      return compiled_eval(c.term, r, cx);
    });
  });
  EXPECT_EQ(fast.value, ref.value) << program;
  EXPECT_EQ(fast.undefined, ref.undefined) << program;
  EXPECT_EQ(fast.loc, ref.loc) << program;
  EXPECT_EQ(fast.reason, ref.reason) << program;
}

// The superinstructions (instructions.hpp: SubLC in `n - 1`, BranchLtLC in `n < 0.5`, Load2),
// the branches on each predicate and Ret1, in every precision and both predicate modes: values,
// and what is undefined with its reason and location (a strict guard at equal sides, a
// difference out of the precision's range, a literal out of it in a guard), as the reference
// evaluator.
template <class S>
void superinstructions_agree() {
  const char* recursion =
      "def f(p: real * real): real =\n"
      "  let (n: real, x: real) = p in\n"
      "  if n < 0.5 then x else if n > 1.5 then f(n - 1, x - 3) + f(n - 2, x) * 2\n"
      "  else f(n - 1, x * x - 0.25);\n"
      "f(n, x)";
  const char* guard_at_equal_sides = "def g(x: real): real = if x < 2 then 0 else g(x - 1);\ng(n)";
  const char* out_of_range = "def h(x: real): real = x - 1e308;\nh(h(x))";
  const char* literal_guard = "def k(x: real): real = if x < 1e400 then x - 1 else 2;\nk(x)";
  const char* every_predicate =
      "def q(x: real): real =\n"
      "  if x <= 0.5 then 1 else if x >= 3 then q(x - 2) else if x = 2 then 5 else q(x - 1);\n"
      "def w(x: real): real =\n"
      "  if x * 1 < x * 0.5 then 1 else if x * 1 > x * 2 then 2 else if x * 1 <= 0 then 3\n"
      "  else if x * 1 >= 4 then 4 else if x * 1 = 2 then 5 else 6;\n"
      "(q(n), w(n))";
  // Two loads in a row with the end of an if between them (a jump's target): no Load2.
  const char* jump_between_loads =
      "def g(p: real * real): real = let (a: real, b: real) = p in a * 10 + b;\n"
      "def r(p: real * real): real =\n"
      "  let (a: real, b: real) = p in g(if a < 0.5 then b else a, a);\n"
      "(r(n, x), r(x, n))";
  const char* on_the_tape = "grad[x](y: real. f(n, y))";
  for (PredicateMode mode : {PredicateMode::Strict, PredicateMode::Total}) {
    EvalOptions o;
    o.predicates = mode;
    for (const char* n : {"0", "1", "2", "7"}) {
      test::Env env;
      for (const char* x : {"-1e308", "0.75"}) {
        env = {{"n", n}, {"x", x}};
        for (const char* p : {recursion, guard_at_equal_sides, out_of_range, literal_guard,
                              every_predicate, jump_between_loads})
          expect_agreement<S>(p, env, o);
      }
      EvalOptions taped = o;
      use_ad(taped, AdMode::Tape);
      expect_agreement<S>(
          std::string(recursion).substr(0, std::string(recursion).rfind('\n') + 1) + on_the_tape,
          env, taped);
    }
  }
}

TEST(CompiledEval, SuperinstructionsAgreeWithTheReference) {
  superinstructions_agree<double>();
  superinstructions_agree<Mpfr50>();
  superinstructions_agree<Mpfr100>();
  superinstructions_agree<Rational>();
}

RC_GTEST_PROP(CompiledEval, AgreesWithTheReferenceInDouble, ()) {
  check_agreement<double>(*gen::program(gen::GenConfig{}));
}

// With the linear R the compiled evaluator computes rd redexes by its fast path (a tape and a
// reverse sweep with the linear R's arithmetic), the reference evaluator by symbolic evaluation,
// the linear R and evaluation of its output: the same values, bit for bit.
RC_GTEST_PROP(CompiledEval, FastRdAgreesWithTheLinearRBitForBit, ()) {
  check_agreement<double>(*gen::program(gen::GenConfig{}), AdMode::Tape);
}

RC_GTEST_PROP(CompiledEval, FastRdAgreesWithTheLinearRIn50Digits, ()) {
  check_agreement<Mpfr50>(*gen::program(gen::GenConfig{}), AdMode::Tape);
}

RC_GTEST_PROP(CompiledEval, AgreesWithTheReferenceExactly, ()) {
  gen::GenConfig cfg;
  cfg.polynomial_only = true;
  check_agreement<Rational>(*gen::program(cfg));
}

}  // namespace
}  // namespace adlang
