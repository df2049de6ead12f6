// The parser: the concrete syntax of docs/design.md Sec. 3, its precedence, and its errors.
#include "lang/parser.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/printer.hpp"
#include "support/stack.hpp"

namespace adlang {
namespace {

// The parse, printed back fully parenthesised by the surface printer's rules.
std::string reparse(const std::string& text) {
  return print_syntax(parse_term(text));
}

SourceLoc error_at(const std::string& text) {
  try {
    parse_program(text);
  } catch (const CompileError& e) {
    return e.diagnostic().loc;
  }
  ADD_FAILURE() << "no syntax error in: " << text;
  return {};
}

std::string error_message(const std::string& text) {
  try {
    parse_program(text);
  } catch (const CompileError& e) {
    return e.diagnostic().message;
  }
  return "(no error)";
}

TEST(Parser, PrefixOperatorsBindTighterThanProducts) {
  EXPECT_EQ(reparse("fst p * snd p"), "fst p * snd p");
  EXPECT_EQ(print_syntax(parse_term("fst p + 1")), "fst p + 1");
  SyntaxProgram p = parse_program("fst p * snd p");
  EXPECT_EQ(p.main->kind, SyntaxKind::Binary);
  EXPECT_EQ(p.main->kids[0]->kind, SyntaxKind::Fst);
}

TEST(Parser, SumsAndProductsAreLeftAssociative) {
  Syntax s = parse_term("a - b - c");
  ASSERT_EQ(s->kind, SyntaxKind::Binary);
  EXPECT_EQ(s->kids[0]->kind, SyntaxKind::Binary);  // (a - b) - c
  EXPECT_EQ(reparse("a - (b - c)"), "a - (b - c)");
  EXPECT_EQ(reparse("a / b * c"), "a / b * c");
}

TEST(Parser, MinusBeforeANumberIsANegativeLiteral) {
  Syntax s = parse_term("-3");
  EXPECT_EQ(s->kind, SyntaxKind::Number);
  EXPECT_EQ(s->text, "-3");
  EXPECT_EQ(parse_term("-x")->kind, SyntaxKind::Neg);
  // Postfix binds tighter than prefix: -1.rd[...] is neg applied to 1.rd[...].
  EXPECT_EQ(parse_term("-1.rd[0](x: real. x)")->kind, SyntaxKind::Neg);
}

TEST(Parser, StarIsUnitInOperandPosition) {
  Syntax s = parse_term("(*, 2)");
  ASSERT_EQ(s->kind, SyntaxKind::Tuple);
  EXPECT_EQ(s->kids[0]->kind, SyntaxKind::Unit);
  EXPECT_EQ(parse_term("()")->kind, SyntaxKind::Unit);
  EXPECT_EQ(parse_term("x * y")->kind, SyntaxKind::Binary);
}

TEST(Parser, TuplesAreNAry) {
  Syntax s = parse_term("(a, b, c)");
  ASSERT_EQ(s->kind, SyntaxKind::Tuple);
  EXPECT_EQ(s->kids.size(), 3u);
}

TEST(Parser, LetBodiesExtendAsFarRightAsPossible) {
  Syntax s = parse_term("let x: real = 1 in x + 2");
  ASSERT_EQ(s->kind, SyntaxKind::Let);
  EXPECT_EQ(s->kids[1]->kind, SyntaxKind::Binary);
  EXPECT_EQ(parse_term("1 + let x: real = 1 in x")->kind, SyntaxKind::Binary);
}

// A chain of lets, tuple lets, local functions and letrecs is parsed in a loop: the tree is the
// one the grammar gives (each body extends as far right as possible), and no length of chain
// needs stack or nesting levels.
TEST(Parser, LetChainsParseAsNestedLets) {
  EXPECT_EQ(reparse("let x: real = 1 in let (a: real, b: real) = (x, 2) in "
                    "let f(t: real): real = t * a in letrec g(n: real): real = g(n) in "
                    "f(b) + g(x) < let y = 2 in y"),
            reparse("let x: real = 1 in (let (a: real, b: real) = (x, 2) in "
                    "(let f(t: real): real = t * a in (letrec g(n: real): real = g(n) in "
                    "(f(b) + g(x) < (let y = 2 in y)))))"));
  Syntax s = parse_term("let x = let y = 1 in y in let z = x in z * 2");
  ASSERT_EQ(s->kind, SyntaxKind::Let);
  EXPECT_EQ(s->kids[0]->kind, SyntaxKind::Let);  // the bound term, a chain of its own
  ASSERT_EQ(s->kids[1]->kind, SyntaxKind::Let);
  EXPECT_EQ(s->kids[1]->kids[1]->kind, SyntaxKind::Binary);
}

TEST(Parser, LetChainsOfAnyLengthParseOnASmallStack) {
  // 10^5 lets on a stack of 8 MiB, where a recursive parse ran out of stack at a few
  // thousand.
  const int n = 100000;
  std::string text;
  text.reserve(static_cast<std::size_t>(n) * 24);
  text += "let x_0: real = 1 in\n";
  for (int i = 1; i < n; ++i)
    text += "let x_" + std::to_string(i) + " = x_" + std::to_string(i - 1) + " + 1 in\n";
  text += "x_" + std::to_string(n - 1);
  Syntax s;
  run_on_large_stack([&] { s = parse_term(text); }, std::size_t(8) << 20);
  int lets = 0;
  for (const SyntaxNode* k = s.get(); k->kind == SyntaxKind::Let; k = k->kids[1].get())
    ++lets;
  EXPECT_EQ(lets, n);
}

// Prefix operators and types count levels as parentheses do: n of them nest n + 1 levels.
TEST(Parser, PrefixOperatorsAndTypesNestAtMostTheLimit) {
  const std::size_t limit = kMaxTermNesting;
  auto fsts = [](std::size_t n) {
    std::string t;
    for (std::size_t i = 0; i < n; ++i)
      t += "fst ";
    return t + "p";
  };
  auto type_parens = [](std::size_t n) {
    return std::string(n, '(') + "real" + std::string(n, ')');
  };
  if (kLargeStackBytes >= (std::size_t(1) << 30)) {
    run_on_large_stack([&] {
      EXPECT_EQ(parse_term(fsts(limit - 1))->kind, SyntaxKind::Fst);
      EXPECT_EQ(parse_type(type_parens(limit - 1)), Type::real());
    });
  }
  for (const std::function<void()>& too_deep : std::vector<std::function<void()>>{
           [&] { parse_term(fsts(limit)); }, [&] { parse_type(type_parens(limit)); }}) {
    try {
      run_on_large_stack(too_deep);
      ADD_FAILURE() << "parsed beyond the limit";
    } catch (const CompileError& e) {
      EXPECT_EQ(e.diagnostic().message, "the program is nested too deeply to parse");
    }
  }
}

// Terms nest at most kMaxTermNesting levels (the whole term is the first): deeper is a syntax
// error at the term that would go one level too deep, whatever the stack could hold.
TEST(Parser, TermsNestAtMostTheLimit) {
  const std::size_t limit = kMaxTermNesting;
  auto parens = [](std::size_t n) { return std::string(n, '(') + "1" + std::string(n, ')'); };
  if (kLargeStackBytes >= (std::size_t(1) << 30)) {
    Syntax s;
    run_on_large_stack([&] { s = parse_term(parens(limit - 1)); });
    EXPECT_EQ(s->kind, SyntaxKind::Number);
  }
  try {
    run_on_large_stack([&] { parse_term(parens(limit)); });
    FAIL() << "parsed terms nested beyond the limit";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.diagnostic().message, "the program is nested too deeply to parse");
    if (kLargeStackBytes >= (std::size_t(1) << 30)) {  // not the stack's guard first
      EXPECT_EQ(e.diagnostic().loc, (SourceLoc{1, static_cast<std::uint32_t>(limit + 1)}));
      ASSERT_EQ(e.diagnostic().notes.size(), 1u);
      EXPECT_NE(e.diagnostic().notes[0].find(std::to_string(limit) + " levels"), std::string::npos)
          << e.diagnostic().notes[0];
    }
  }
}

TEST(Parser, TypesAreLeftAssociativeProductsAndPowers) {
  EXPECT_EQ(parse_type("real * real * real"), Type::real_power(3));
  EXPECT_EQ(parse_type("real^3"), Type::real_power(3));
  EXPECT_EQ(parse_type("real^1"), Type::real());
  EXPECT_EQ(parse_type("real^0"), Type::unit());
  EXPECT_EQ(parse_type("real * (real * real)"),
            Type::pair(Type::real(), Type::pair(Type::real(), Type::real())));
}

TEST(Parser, RdFdAndGradForms) {
  Syntax rd = parse_term("(1, 0).rd[x0](t: real. (t, t))");
  ASSERT_EQ(rd->kind, SyntaxKind::Rd);
  EXPECT_EQ(rd->binders[0].name.str(), "t");
  EXPECT_EQ(parse_term("1.fd[2](x: real. x * x)")->kind, SyntaxKind::Fd);
  EXPECT_EQ(parse_term("grad[(1, 2)](q: real * real. fst q)")->kind, SyntaxKind::Grad);
}

TEST(Parser, GuardsMayBeParenthesisedOrPredicates) {
  Syntax s = parse_term("if (x < 0) then 0 else x");
  EXPECT_EQ(s->kids[0]->kind, SyntaxKind::Compare);
  EXPECT_EQ(parse_term("if lt(x, 0) then 0 else x")->kids[0]->kind, SyntaxKind::Call);
  EXPECT_EQ(parse_term("if x + 1 < y * 2 then 0 else x")->kids[0]->kind, SyntaxKind::Compare);
}

TEST(Parser, ComparisonsDoNotChain) {
  EXPECT_EQ(error_message("if a < b < c then 0 else 1"), "comparisons do not chain, found '<'");
}

TEST(Parser, ProgramsAreDefsThenATerm) {
  SyntaxProgram p = parse_program(
      "def f(x: real): real = x;\n"
      "def g(p: real * real): real = fst p;\n"
      "f(1) + g(1, 2)");
  EXPECT_EQ(p.defs.size(), 2u);
  EXPECT_EQ(p.defs[1].param.type, Type::pair(Type::real(), Type::real()));
}

TEST(Parser, ErrorsPointAtTheOffendingToken) {
  EXPECT_EQ(error_at("let x: real = 1 x"), (SourceLoc{1, 17}));
  EXPECT_EQ(error_at("def f(x: real): real = x\nf(1)"), (SourceLoc{2, 1}));
  EXPECT_EQ(error_at("(1, 2"), (SourceLoc{1, 6}));
  EXPECT_EQ(error_at(""), (SourceLoc{1, 1}));
}

TEST(Parser, ErrorMessagesSayWhatWasExpected) {
  EXPECT_EQ(error_message("if x < 0 then 1"),
            "expected 'else' after the 'then' branch, found end of file");
  EXPECT_EQ(error_message("let in = 1 in 2"), "expected a name after 'let', found 'in'");
  EXPECT_EQ(error_message("x - --1"), "expected a term, found end of file");
}

TEST(Parser, HundredThousandNestedParenthesesParse) {
  // Balanced: a valid program, parsed on a large stack. (Sanitizer builds have a 64 MiB large
  // stack, see support/stack.hpp: there 10^5 levels are a clean "nested too deeply" error.)
  std::string text = std::string(100000, '(') + "1" + std::string(100000, ')');
  Syntax s;
  if (kLargeStackBytes >= (std::size_t(1) << 30)) {
    run_on_large_stack([&] { s = parse_term(text); });
    EXPECT_EQ(s->kind, SyntaxKind::Number);
  } else {
    EXPECT_THROW(run_on_large_stack([&] { parse_term(text); }), CompileError);
  }
  std::size_t depth = kLargeStackBytes >= (std::size_t(1) << 30) ? 10000 : 2000;
  std::string deep = std::string(depth, '(') + "1" + std::string(depth, ')');
  run_on_large_stack([&] { s = parse_term(deep); });
  EXPECT_EQ(s->kind, SyntaxKind::Number);
}

TEST(Parser, UnbalancedDeepParenthesesAreASyntaxError) {
  std::string text = std::string(100000, '(') + "1";
  EXPECT_THROW(run_on_large_stack([&] { parse_term(text); }), CompileError);
}

TEST(Parser, NestingBeyondTheStackIsAnErrorNotACrash) {
  // On the default 8 MiB stack, 10^6 levels cannot be parsed recursively.
  std::string text = std::string(1000000, '(') + "1" + std::string(1000000, ')');
  try {
    parse_term(text);
    FAIL() << "parsed 10^6 nested parentheses on a small stack";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.diagnostic().message, "the program is nested too deeply to parse");
  }
}

// Random bytes never crash the parser: they parse or raise CompileError.
RC_GTEST_PROP(Parser, RandomBytesNeverCrash, (const std::string& bytes)) {
  try {
    parse_program(bytes);
  } catch (const CompileError&) {
  }
}

// Every prefix of a valid program parses or raises CompileError.
TEST(Parser, TruncatedProgramsGiveSyntaxErrors) {
  std::string text =
      "def f(x: real): real = if x < 0 then 0 else x * sin(x);\n"
      "let (a: real, b: real) = (1, 2) in (1, 0).rd[a](t: real. (f(t), grad[t](u: real. u)))";
  int errors = 0;
  for (std::size_t n = 0; n < text.size(); ++n) {
    try {
      parse_program(text.substr(0, n));
    } catch (const CompileError&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, static_cast<int>(text.size()) / 2);
  EXPECT_NO_THROW(parse_program(text));
}

}  // namespace
}  // namespace adlang
