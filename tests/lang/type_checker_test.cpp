// The type checker: one test per typing rule of Fig. 1 (accepting and rejecting), and the
// admissible rules of Sec. 2's abbreviations, each elaborated as the paper defines it.
#include "lang/type_checker.hpp"

#include <gtest/gtest.h>

#include "lang/diagnostics.hpp"
#include "lang/parser.hpp"
#include "lang/printer.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::Env;

// The type of `program`, or "error L:C: message".
std::string type_of(const std::string& program, const Env& env = {}) {
  try {
    return to_string(test::check(program, env).term.type());
  } catch (const CompileError& e) {
    const Diagnostic& d = e.diagnostic();
    return "error " + std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " +
           d.message;
  }
}

std::string elaborated(const std::string& program, const Env& env = {}) {
  return print_term(test::check(program, env).term);
}

// Fig. 1: Phi | Gamma |- x : T  (x : T in Gamma)
TEST(TypeChecker, VariableRule) {
  EXPECT_EQ(type_of("x", {{"x", "(1, 2)"}}), "real * real");
  EXPECT_EQ(type_of("y", {{"x", "1"}}), "error 1:1: unbound variable 'y'");
}

// Fig. 1: Phi | Gamma |- r : real
TEST(TypeChecker, RealConstantRule) {
  EXPECT_EQ(type_of("2.5e-1"), "real");
}

// Fig. 1: M : real, N : real |- M + N : real
TEST(TypeChecker, AdditionRule) {
  EXPECT_EQ(type_of("1 + 2"), "real");
  EXPECT_EQ(type_of("1 + (1, 2)"),
            "error 1:5: the right operand of '+' must be a real, but has type 'real * real'");
}

// Fig. 1: M : T |- op(M) : U  (op : T -> U)
TEST(TypeChecker, OperationRule) {
  EXPECT_EQ(type_of("sin(1)"), "real");
  EXPECT_EQ(type_of("dot_3((1, 2, 3), (4, 5, 6))"), "real");
  EXPECT_EQ(type_of("scale_2(2, (1, 1))"), "real * real");
  EXPECT_EQ(type_of("sin(1, 2)"),
            "error 1:1: operator 'sin' takes an argument of type 'real', but is given 'real * "
            "real'");
  EXPECT_EQ(type_of("frobnicate(1)"), "error 1:1: unknown function 'frobnicate'");
}

// Fig. 1: M : T, Gamma[x:T] |- N : U gives let x:T = M in N : U
TEST(TypeChecker, LetRule) {
  EXPECT_EQ(type_of("let x: real * real = (1, 2) in fst x"), "real");
  EXPECT_EQ(type_of("let x: real = (1, 2) in x"),
            "error 1:15: 'x' is declared 'real' but is bound to a term of type 'real * real'");
  // The annotation may be omitted (an extension): the bound term's type is used.
  EXPECT_EQ(type_of("let x = (1, 2) in x"), "real * real");
}

// Fig. 1: |- * : unit and M : T, N : U |- <M, N>_{T,U} : T * U
TEST(TypeChecker, UnitAndPairRules) {
  EXPECT_EQ(type_of("*"), "unit");
  EXPECT_EQ(type_of("(1, *)"), "real * unit");
  EXPECT_EQ(type_of("((1, 2), 3)"), "real^3");
  EXPECT_EQ(type_of("(1, (2, 3))"), "real * (real * real)");
}

// Fig. 1: M : T * U |- fst_{T,U}(M) : T and snd_{T,U}(M) : U
TEST(TypeChecker, ProjectionRules) {
  EXPECT_EQ(type_of("fst (1, *)"), "real");
  EXPECT_EQ(type_of("snd (1, *)"), "unit");
  EXPECT_EQ(type_of("fst 1"), "error 1:5: fst needs a pair, but this has type 'real'");
}

// Fig. 1: B, M : T, N : T |- if B then M else N : T
TEST(TypeChecker, ConditionalRule) {
  EXPECT_EQ(type_of("if 1 < 2 then 1 else 2"), "real");
  EXPECT_EQ(type_of("if true then * else *"), "unit");
  EXPECT_EQ(type_of("if 1 < 2 then 1 else *"),
            "error 1:22: the 'else' branch has type 'unit' but the 'then' branch has type 'real'");
  EXPECT_EQ(type_of("if 1 then 1 else 2"), "error 1:4: the guard of an 'if' must be a comparison");
}

// Fig. 1: Phi[f:T->U] | x:T |- M : U and Phi[f:T->U] | Gamma |- N : S
TEST(TypeChecker, LetrecRule) {
  EXPECT_EQ(type_of("letrec f(x: real): real = f(x) in f(1)"), "real");
  EXPECT_EQ(type_of("letrec f(x: real): real = (x, x) in f(1)"),
            "error 1:27: the body of 'f' has type 'real * real' but 'f' is declared to return "
            "'real'");
  // No free ordinary variables in function bodies.
  EXPECT_EQ(type_of("let y: real = 1 in letrec f(x: real): real = x + y in f(1)"),
            "error 1:50: a function body cannot use 'y', which is bound outside the function");
}

// Fig. 1: M : T |- f(M) : U  (f : T -> U in Phi)
TEST(TypeChecker, ApplicationRule) {
  EXPECT_EQ(type_of("def f(p: real * real): real = fst p; f(1, 2)"), "real");
  EXPECT_EQ(type_of("def f(p: real * real): real = fst p; f(1)"),
            "error 1:38: 'f' takes an argument of type 'real * real', but is given 'real'");
  EXPECT_EQ(type_of("def f(x: real): real = x; f"), "error 1:27: 'f' is a function, not a value");
}

// Fig. 1: Gamma[x:T] |- N : U, L : T, M : U gives M.rd_L(x:T. N) : T
TEST(TypeChecker, DifferentiationRule) {
  EXPECT_EQ(type_of("(1, 0).rd[2](x: real. (x, x))"), "real");
  EXPECT_EQ(type_of("1.rd[(1, 2)](x: real * real. fst x)"), "real * real");
  EXPECT_EQ(type_of("1.rd[2](x: real. (x, x))"),
            "error 1:1: the cotangent (the term before '.rd') has type 'real' but the body has "
            "type 'real * real'");
  EXPECT_EQ(type_of("1.rd[*](x: real. x)"),
            "error 1:6: the point of rd (where 'x' is) has type 'unit' but 'real' is expected");
}

// Fig. 1: |- true, |- false, M : T |- pred(M)  (pred : T)
TEST(TypeChecker, BooleanRules) {
  EXPECT_EQ(type_of("if false then 1 else 2"), "real");
  EXPECT_EQ(type_of("if lt(1, 2) then 1 else 2"), "real");
  EXPECT_EQ(type_of("if lt(1) then 1 else 2"),
            "error 1:4: predicate 'lt' takes two reals, not 'real'");
  EXPECT_EQ(type_of("if (1, 2) < 3 then 1 else 2"),
            "error 1:4: the left side of '<' must be a real, but has type 'real * real'");
  EXPECT_EQ(type_of("1 < 2"), "error 1:3: a comparison is not a term");
  EXPECT_EQ(type_of("true"), "error 1:1: 'true' and 'false' are not values in adlang");
}

// Sec. 2: let <x0:T0, ..., xn:Tn> = M in N, defined recursively through fst/snd.
TEST(TypeChecker, TupleLetAbbreviation) {
  EXPECT_EQ(type_of("let (a: real, b: unit, c: real) = (1, *, 2) in a + c"), "real");
  EXPECT_EQ(elaborated("let (a: real, b: real) = (1, 2) in a * b"),
            "let z_1: real * real = (1, 2) in\n"
            "let a: real = fst z_1 in\n"
            "let b: real = snd z_1 in\n"
            "a * b");
  EXPECT_EQ(type_of("let (a: real, b: real) = (1, 2, 3) in a"),
            "error 1:26: the tuple pattern expects 'real * real' but the bound term has type "
            "'real^3'");
}

// Sec. 2: grad_L(x:real^n. N) = 1.rd_L(x:real^n. N).
TEST(TypeChecker, GradAbbreviation) {
  EXPECT_EQ(elaborated("grad[(1, 2)](q: real * real. fst q * snd q)"),
            "1.rd[(1, 2)](q: real * real. fst q * snd q)");
  EXPECT_EQ(type_of("grad[1](x: real. (x, x))"),
            "error 1:18: grad needs a real-valued body, but this has type 'real * real'");
}

// Sec. 2: M.fd_{U,L}(x:T. N) = M.rd_{0_U}(y:U. y.rd_L(x:T. N)).
TEST(TypeChecker, FdAbbreviation) {
  EXPECT_EQ(elaborated("1.fd[2](x: real. (x, x))"),
            "1.rd[(0, 0)](y_1: real * real. y_1.rd[2](x: real. (x, x)))");
  EXPECT_EQ(type_of("1.fd[2](x: real. (x, x))"), "real * real");
}

// Sec. 2: 0_T and +_T.
TEST(TypeChecker, ZeroAndPlusAtEveryType) {
  EXPECT_EQ(elaborated("zero[real * (unit * real)]"), "(0, (*, 0))");
  EXPECT_EQ(elaborated("add[unit](*, *)"), "let x_1: unit = * in\nlet y_1: unit = * in\n*");
  EXPECT_EQ(type_of("add[real * real]((1, 2), (3, 4))"), "real * real");
  EXPECT_EQ(type_of("add[real](1, *)"),
            "error 1:14: the second operand of add[real] has type 'unit' but 'real' is expected");
}

// Sec. 2: infix operators are sugar for the table's operators on pairs.
TEST(TypeChecker, InfixOperatorsAreTableOperators) {
  Term t = test::check("1 - 2 * 3 / 4").term;
  const OpApp* sub = t.as<OpApp>();
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(sub->op.kind(), OpKind::Sub);
  EXPECT_EQ(print_term(t, PrintStyle::Paper), "sub(<1, div(<mul(<2, 3>), 4>)>)");
}

TEST(TypeChecker, TopLevelDefsAreOneRecursiveGroup) {
  Term t = test::check(
               "def even(n: real): real = if n < 0.5 then 1 else odd(n - 1);\n"
               "def odd(n: real): real = if n < 0.5 then 0 else even(n - 1);\n"
               "even(4)")
               .term;
  const LetRec* group = t.as<LetRec>();
  ASSERT_NE(group, nullptr);
  EXPECT_EQ(group->defs.size(), 2u);
  EXPECT_EQ(type_of("def f(x: real): real = x; def f(x: real): real = x; f(1)"),
            "error 1:27: function 'f' is defined twice");
}

TEST(TypeChecker, LocalFunctionsAbbreviateLetrec) {
  Term t = test::check("let h(y: real): real = -y in h(1)").term;
  EXPECT_NE(t.as<LetRec>(), nullptr);
}

TEST(TypeChecker, ProgramInputsAreTheFreeVariablesInOrder) {
  SyntaxProgram p = parse_program("let a: real = b in a + c + b + a");
  std::vector<Name> in = program_inputs(p);
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(in[0].str(), "b");
  EXPECT_EQ(in[1].str(), "c");
}

TEST(TypeChecker, DiagnosticsRenderWithTheSourceLineAndACaret) {
  std::string program = "let x: real = 1 in\nx + (1, 2)";
  try {
    test::check(program);
    FAIL() << "no type error";
  } catch (const CompileError& e) {
    SourceFile f("prog.ad", program);
    EXPECT_EQ(render(e.diagnostic(), &f),
              "prog.ad:2:5: error: the right operand of '+' must be a real, but has type 'real "
              "* real'\n"
              "  x + (1, 2)\n"
              "      ^\n"
              "note: to add values of type real * real write add[real * real](a, b)\n");
  }
}

// A session's definitions, checked once (check_definitions), and a later program checked in
// their scope (check_program_in): the same core IR as the whole program checked at once, and
// the same errors, at the lines the texts were given.
TEST(TypeChecker, AProgramChecksInTheScopeOfDefinitionsCheckedBefore) {
  NameSupply names;
  SyntaxProgram first = parse_program("def sq(x: real): real = x * x;\n()");
  std::vector<FunDef> sq = check_definitions({}, first.defs, names);
  SyntaxProgram second = parse_program("def quad(x: real): real = sq(sq(x));\n()", 3);
  std::vector<FunDef> quad = check_definitions(sq, second.defs, names);
  ASSERT_EQ(quad.size(), 1u);
  EXPECT_EQ(quad[0].loc.line, 3u);
  std::vector<FunDef> scope = sq;
  scope.insert(scope.end(), quad.begin(), quad.end());
  Term in_scope =
      check_program_in(scope, parse_program("quad(y) + 1", 5), {{Name("y"), Type::real()}}, names);
  EXPECT_EQ(print_program(in_scope),
            print_program(
                test::check("def sq(x: real): real = x * x;\ndef quad(x: real): real = sq(sq(x));\n"
                            "quad(y) + 1",
                            {{"y", "2"}})
                    .term));

  // A call that does not fit a checked definition's type, at its own line.
  try {
    check_program_in(scope, parse_program("sq((1, 2))", 7), {}, names);
    FAIL() << "no type error";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.diagnostic().loc.line, 7u);
    EXPECT_EQ(e.diagnostic().message,
              "'sq' takes an argument of type 'real', but is given 'real * real'");
  }
  // A checked definition defined again in the same group.
  EXPECT_THROW(check_definitions(sq, first.defs, names), CompileError);
}

}  // namespace
}  // namespace adlang
