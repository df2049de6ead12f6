// The lexer: numbers, names, keywords, comments (docs/design.md Sec. 3).
#include "lang/lexer.hpp"

#include <gtest/gtest.h>

#include "lang/diagnostics.hpp"

namespace adlang {
namespace {

std::string kinds(const std::string& text) {
  std::string out;
  for (const Token& t : lex(text)) {
    if (!out.empty()) out += ' ';
    out += t.kind == TokenKind::End ? "$" : t.text;
  }
  return out;
}

TEST(Lexer, DotAfterNumberNeedsADigitToBelongToIt) {
  EXPECT_EQ(kinds("1.rd[1](x: real. x)"), "1 . rd [ 1 ] ( x : real . x ) $");
  EXPECT_EQ(kinds("1.5"), "1.5 $");
  EXPECT_EQ(kinds("real^3.x"), "real ^ 3 . x $");
}

TEST(Lexer, NumbersWithExponents) {
  EXPECT_EQ(kinds("2.5e-1 1E10 3e+2"), "2.5e-1 1E10 3e+2 $");
  // An 'e' not followed by digits is not part of the number.
  EXPECT_EQ(kinds("2e x"), "2 e x $");
}

TEST(Lexer, DoubleDashStartsACommentAlways) {
  EXPECT_EQ(kinds("x--1\ny"), "x y $");
  EXPECT_EQ(kinds("x - -1"), "x - - 1 $");
}

TEST(Lexer, NamesMayContainPrimesAndUnderscores) {
  EXPECT_EQ(kinds("w' _t x_1"), "w' _t x_1 $");
}

TEST(Lexer, KeywordsAreTokensOfTheirOwn) {
  std::vector<Token> t = lex("letrec let in");
  EXPECT_EQ(t[0].kind, TokenKind::KwLetrec);
  EXPECT_EQ(t[1].kind, TokenKind::KwLet);
  EXPECT_EQ(t[2].kind, TokenKind::KwIn);
}

TEST(Lexer, ComparisonsLongestMatchFirst) {
  EXPECT_EQ(kinds("a<=b>=c<d"), "a <= b >= c < d $");
}

TEST(Lexer, TracksLinesAndColumns) {
  std::vector<Token> t = lex("a\n  bc");
  EXPECT_EQ(t[1].loc.line, 2u);
  EXPECT_EQ(t[1].loc.col, 3u);
}

TEST(Lexer, UnexpectedCharacterIsAnErrorWithLocation) {
  try {
    lex("x @ y");
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.diagnostic().loc.col, 3u);
    EXPECT_NE(e.diagnostic().message.find("'@'"), std::string::npos);
  }
}

TEST(Lexer, NonAsciiBytesAreReportedAsBytes) {
  try {
    lex("x \xC3\xA9");
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_NE(e.diagnostic().message.find("\\xC3"), std::string::npos);
  }
}

}  // namespace
}  // namespace adlang
