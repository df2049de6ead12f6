// The parser for .ad programs: the concrete syntax of docs/design.md Sec. 3, which is fixed.
//
//   program ::= decl* term
//   decl    ::= 'def' f '(' x ':' T ')' ':' U '=' term ';'
//
// Precedence, loosest first: let/letrec/if (bodies extend as far right as possible);
// comparisons (guards only, non-associative); + - (left); * / (left); prefix - fst snd;
// postfix .rd[..](..) .fd[..](..); calls and atoms.
#pragma once

#include <cstdint>
#include <string_view>

#include "lang/syntax.hpp"

namespace adlang {

// How many levels terms may nest, one inside another (parentheses, operands, prefix operators,
// branches, bound terms, function bodies, types): a deeper program is a syntax error, "nested
// too deeply to parse", reported before its frames fill the stack. A chain of lets (let .. in
// let .. in ..) takes no level per let, so printed traces and generated let chains of any
// length parse.
inline constexpr std::uint32_t kMaxTermNesting = std::uint32_t{1} << 17;

// Parses a whole program. Throws CompileError (with a location) on a syntax error, including a
// program nested deeper than kMaxTermNesting levels or too deeply for the stack. Locations count
// the text's first line as `first_line` (lex).
SyntaxProgram parse_program(std::string_view text, std::uint32_t first_line = 1);

// Parses a single term (used for --env values and in tests); the whole text must be one term.
Syntax parse_term(std::string_view text);

// Parses a type, e.g. "real * real^3".
Type parse_type(std::string_view text);

}  // namespace adlang
