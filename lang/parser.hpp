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

// Parses a whole program. Throws CompileError (with a location) on a syntax error, including a
// program nested too deeply for the stack. Locations count the text's first line as
// `first_line` (lex).
SyntaxProgram parse_program(std::string_view text, std::uint32_t first_line = 1);

// Parses a single term (used for --env values and in tests); the whole text must be one term.
Syntax parse_term(std::string_view text);

// Parses a type, e.g. "real * real^3".
Type parse_type(std::string_view text);

}  // namespace adlang
