// The printers: core terms print back in the concrete syntax (parse . print = identity up to
// alpha), the surface printer keeps the user's notation (adlang fmt), and the paper style.
#include "lang/printer.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "checker/rapidcheck_generators.hpp"
#include "lang/alpha.hpp"
#include "lang/diagnostics.hpp"
#include "lang/parser.hpp"
#include "lang/type_checker.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

std::string fmt(const std::string& text) {
  return print_syntax_program(parse_program(text));
}

TEST(Printer, LeftNestedTuplesPrintFlat) {
  EXPECT_EQ(print_term(test::check("((1, 2), 3)").term), "(1, 2, 3)");
  EXPECT_EQ(print_term(test::check("(1, (2, 3))").term), "(1, (2, 3))");
}

TEST(Printer, InfixWhereTheSyntaxHasIt) {
  EXPECT_EQ(print_term(test::check("(1 - 2) - (3 - 4)").term), "1 - 2 - (3 - 4)");
  EXPECT_EQ(print_term(test::check("sub(p)", {{"p", "(1, 2)"}}).term), "sub(p)");
  EXPECT_EQ(print_term(test::check("-(-x)", {{"x", "1"}}).term), "-(-x)");
  EXPECT_EQ(print_term(test::check("neg(-2)").term), "neg(-2)");
  EXPECT_EQ(print_term(test::check("x - -2", {{"x", "1"}}).term), "x - -2");
}

TEST(Printer, NegativeLiteralReceiversAreParenthesised) {
  EXPECT_EQ(print_term(test::check("(-1).rd[0](x: real. x)").term), "(-1).rd[0](x: real. x)");
}

TEST(Printer, LetsOnePerLine) {
  EXPECT_EQ(print_term(test::check("let a: real = (let b: real = 1 in b + b) in a * a").term),
            "let a: real =\n"
            "  let b: real = 1 in\n"
            "  b + b\n"
            "in\n"
            "a * a");
}

TEST(Printer, GroupsAtTheRootPrintAsDefs) {
  Term t = test::check("def f(x: real): real = x;\ndef g(x: real): real = f(x);\ng(1)").term;
  EXPECT_EQ(print_program(t),
            "def f(x: real): real =\n  x;\ndef g(x: real): real =\n  f(x);\n\ng(1)\n");
}

TEST(Printer, PaperStyle) {
  Term t = test::check("(1, 0).rd[x](t: real. (t * t, fst (t, 1)))", {{"x", "2"}}).term;
  EXPECT_EQ(print_term(t, PrintStyle::Paper), "<1, 0>.rd_{x}(t:real. <mul(<t, t>), fst(<t, 1>)>)");
}

TEST(Printer, FmtKeepsTheUsersNotation) {
  std::string tour = test::read_file(test::source_dir() + "/examples/syntax_tour.ad");
  std::string once = fmt(tour);
  test::expect_golden("fmt/syntax_tour.ad", once);
  EXPECT_EQ(fmt(once), once);  // fmt is idempotent
}

TEST(Printer, FmtPrintsGradFdTupleLetAndZero) {
  EXPECT_EQ(fmt("grad[(1,2)](q:real*real.fst q)"), "grad[(1, 2)](q: real * real. fst q)\n");
  EXPECT_EQ(fmt("1.fd[2](x:real.x*x)"), "1.fd[2](x: real. x * x)\n");
  EXPECT_EQ(fmt("let (a:real,b:real)=p in a"), "let (a: real, b: real) = p in\na\n");
  EXPECT_EQ(fmt("add[real^3](zero[real^3], v)"), "add[real^3](zero[real^3], v)\n");
  EXPECT_EQ(fmt("if (x<0) then -x else x"), "if x < 0 then -x else x\n");
}

// parse . print = identity up to alpha, on random well-typed programs.
RC_GTEST_PROP(Printer, PrintThenParseIsIdentityUpToAlpha, ()) {
  gen::GeneratedProgram p = *gen::program(gen::GenConfig{});
  std::string text = print_program(p.term);
  SyntaxProgram s = parse_program(text);
  NameSupply names;
  for (const Name& n : s.identifiers)
    names.reserve(n);
  Term back = check_program(s, p.inputs, names);
  RC_ASSERT(alpha_equivalent(p.term, back));
}

// The surface printer round-trips too: fmt . parse is a fixed point.
RC_GTEST_PROP(Printer, FmtIsAFixedPoint, ()) {
  gen::GeneratedProgram p = *gen::program(gen::GenConfig{});
  std::string once = print_syntax_program(parse_program(print_program(p.term)));
  RC_ASSERT(print_syntax_program(parse_program(once)) == once);
}

}  // namespace
}  // namespace adlang
