// Printing core terms back in the concrete syntax (docs/design.md Sec. 3), so that
// parse(print(t)) elaborates to a term alpha-equivalent to t, and in the paper's notation
// for teaching material (not re-parseable).
//
// Layout: one let per line; a let whose bound term spans lines puts it on its own indented
// lines. Infix operators are used where the concrete syntax has them (sub(<a, b>) prints as
// `a - b`), left-nested tuples print flat ((a, b), c) as (a, b, c).
#pragma once

#include <string>

#include "lang/syntax.hpp"
#include "lang/term.hpp"

namespace adlang {

enum class PrintStyle {
  Concrete,  // the .ad syntax; parses back
  Paper,     // the paper's notation: <M, N>, fst(M), op(M), M.rd_{L}(x:T. N)
  Resolved,  // the .ad syntax with each function's id (lang/resolve.hpp): f#3; does not parse
};

std::string print_term(const Term& t, PrintStyle style = PrintStyle::Concrete);
// A guard (the derivation trees of adlang run --derivation).
std::string print_bool(const BoolTerm& b, PrintStyle style = PrintStyle::Concrete);
// A whole program: a letrec group at the root prints as top-level defs.
std::string print_program(const Term& t, PrintStyle style = PrintStyle::Concrete);

// The surface syntax as written (abbreviations kept): what `adlang fmt` prints.
std::string print_syntax(const Syntax& s);
std::string print_syntax_program(const SyntaxProgram& p);

}  // namespace adlang
