// The lexer for .ad programs (docs/design.md Sec. 3): identifiers, numbers, keywords, punctuation,
// `--` comments to end of line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lang/source.hpp"

namespace adlang {

enum class TokenKind {
  Ident,
  Number,
  // keywords
  KwDef,
  KwLet,
  KwLetrec,
  KwIn,
  KwIf,
  KwThen,
  KwElse,
  KwFst,
  KwSnd,
  KwTrue,
  KwFalse,
  KwReal,
  KwUnit,
  KwGrad,
  // punctuation
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  Colon,
  Semicolon,
  Dot,
  Caret,
  Plus,
  Minus,
  Star,
  Slash,
  Less,
  Greater,
  LessEq,
  GreaterEq,
  Equals,
  End,
};

struct Token {
  TokenKind kind;
  std::string text;
  SourceLoc loc;
};

// A readable description of a token for error messages: "'in'", "number 3", "end of file".
std::string describe(const Token& t);
// The spelling of a token kind: "'then'", "')'".
std::string spelling(TokenKind k);

// Splits `text` into tokens ending with End. Throws CompileError on a character that cannot
// start a token. Locations count `text`'s first line as `first_line` (a text that continues
// another, as the REPL's inputs continue its session).
std::vector<Token> lex(std::string_view text, std::uint32_t first_line = 1);

}  // namespace adlang
