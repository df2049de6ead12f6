#include "lang/lexer.hpp"

#include <cstdio>

#include "lang/diagnostics.hpp"

namespace adlang {

namespace {

struct Keyword {
  const char* text;
  TokenKind kind;
};

constexpr Keyword kKeywords[] = {
    {"def", TokenKind::KwDef},   {"let", TokenKind::KwLet},     {"letrec", TokenKind::KwLetrec},
    {"in", TokenKind::KwIn},     {"if", TokenKind::KwIf},       {"then", TokenKind::KwThen},
    {"else", TokenKind::KwElse}, {"fst", TokenKind::KwFst},     {"snd", TokenKind::KwSnd},
    {"true", TokenKind::KwTrue}, {"false", TokenKind::KwFalse}, {"real", TokenKind::KwReal},
    {"unit", TokenKind::KwUnit}, {"grad", TokenKind::KwGrad},
};

struct Punct {
  const char* text;
  TokenKind kind;
};

// Longest first, so "<=" wins over "<".
constexpr Punct kPuncts[] = {
    {"<=", TokenKind::LessEq}, {">=", TokenKind::GreaterEq}, {"(", TokenKind::LParen},
    {")", TokenKind::RParen},  {"[", TokenKind::LBracket},   {"]", TokenKind::RBracket},
    {",", TokenKind::Comma},   {":", TokenKind::Colon},      {";", TokenKind::Semicolon},
    {".", TokenKind::Dot},     {"^", TokenKind::Caret},      {"+", TokenKind::Plus},
    {"-", TokenKind::Minus},   {"*", TokenKind::Star},       {"/", TokenKind::Slash},
    {"<", TokenKind::Less},    {">", TokenKind::Greater},    {"=", TokenKind::Equals},
};

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_ident_char(char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9') || c == '\'';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

std::string spelling(TokenKind k) {
  for (const Keyword& kw : kKeywords)
    if (kw.kind == k) return std::string("'") + kw.text + "'";
  for (const Punct& p : kPuncts)
    if (p.kind == k) return std::string("'") + p.text + "'";
  switch (k) {
    case TokenKind::Ident:
      return "a name";
    case TokenKind::Number:
      return "a number";
    case TokenKind::End:
      return "end of file";
    default:
      return "a token";
  }
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case TokenKind::Ident:
      return "name '" + t.text + "'";
    case TokenKind::Number:
      return "number " + t.text;
    case TokenKind::End:
      return "end of file";
    default:
      return "'" + t.text + "'";
  }
}

std::vector<Token> lex(std::string_view text, std::uint32_t first_line) {
  std::vector<Token> out;
  std::uint32_t line = first_line, col = 1;
  std::size_t i = 0, n = text.size();
  auto advance = [&](std::size_t k) {
    for (std::size_t j = 0; j < k; ++j) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
      ++i;
    }
  };
  while (true) {
    // Skip white space and comments.
    while (i < n) {
      char c = text[i];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        advance(1);
      } else if (c == '-' && i + 1 < n && text[i + 1] == '-') {
        while (i < n && text[i] != '\n')
          advance(1);
      } else {
        break;
      }
    }
    SourceLoc loc{line, col};
    if (i >= n) {
      out.push_back(Token{TokenKind::End, "", loc});
      return out;
    }
    char c = text[i];
    if (is_ident_start(c)) {
      std::size_t j = i;
      while (j < n && is_ident_char(text[j]))
        ++j;
      std::string word(text.substr(i, j - i));
      TokenKind kind = TokenKind::Ident;
      for (const Keyword& kw : kKeywords)
        if (word == kw.text) kind = kw.kind;
      advance(j - i);
      out.push_back(Token{kind, std::move(word), loc});
      continue;
    }
    if (is_digit(c)) {
      // digits ('.' digits)? (('e'|'E') ('+'|'-')? digits)?; a dot belongs to the number only
      // when a digit follows it, so `1.rd[...]` is `1` `.` `rd`.
      std::size_t j = i;
      while (j < n && is_digit(text[j]))
        ++j;
      if (j + 1 < n && text[j] == '.' && is_digit(text[j + 1])) {
        ++j;
        while (j < n && is_digit(text[j]))
          ++j;
      }
      if (j < n && (text[j] == 'e' || text[j] == 'E')) {
        std::size_t k = j + 1;
        if (k < n && (text[k] == '+' || text[k] == '-')) ++k;
        if (k < n && is_digit(text[k])) {
          while (k < n && is_digit(text[k]))
            ++k;
          j = k;
        }
      }
      std::string num(text.substr(i, j - i));
      advance(j - i);
      out.push_back(Token{TokenKind::Number, std::move(num), loc});
      continue;
    }
    bool matched = false;
    for (const Punct& p : kPuncts) {
      std::string_view pt(p.text);
      if (text.substr(i, pt.size()) == pt) {
        advance(pt.size());
        out.push_back(Token{p.kind, std::string(pt), loc});
        matched = true;
        break;
      }
    }
    if (matched) continue;
    std::string shown;
    unsigned char uc = static_cast<unsigned char>(c);
    if (uc >= 0x20 && uc < 0x7f) {
      shown = std::string("'") + c + "'";
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", uc);
      shown = std::string("byte ") + buf;
    }
    std::vector<std::string> notes;
    if (c == '!' || c == '&' || c == '|')
      notes.push_back("adlang has no boolean operators; nest conditionals instead");
    if (uc >= 0x80) notes.push_back("programs are written in ASCII");
    throw CompileError(loc, "unexpected " + shown + " in program text", notes);
  }
}

}  // namespace adlang
