// Shared layout rules of the two printers (core terms, surface syntax): precedence levels and
// how lets, parentheses and indentation are laid out. Internal to lang/.
#pragma once

#include <string>
#include <string_view>

namespace adlang::layout {

// Precedence levels, loosest first (docs/design.md Sec. 3).
enum Level : int {
  kOpen = 0,     // let, letrec, if: extend as far right as possible
  kCompare = 1,  // a < b (guards)
  kSum = 2,      // + -
  kProduct = 3,  // * /
  kPrefix = 4,   // -a, fst a, snd a, negative literals
  kPostfix = 5,  // .rd, .fd, calls
  kAtom = 6,     // names, numbers, tuples, parenthesised terms
};

// A printed fragment and the level of its outermost construct.
struct Doc {
  std::string text;
  int level = kAtom;
};

inline bool multiline(std::string_view s) {
  return s.find('\n') != std::string_view::npos;
}

// Indents every line after the first by `n` spaces.
std::string indent(std::string_view s, int n);

// `d` in a context that needs at least level `ctx`: parenthesised if it binds looser.
std::string at_level(const Doc& d, int ctx);

// `<keyword> <head> = <bound> in` followed by the body on the next line; a multi-line bound term
// is placed on its own indented lines. `keyword` is "let" or "letrec".
std::string let_layout(std::string_view keyword, std::string_view head, std::string_view bound,
                       std::string_view body);

// `if g then m else n`, one branch per line when a branch spans lines.
std::string if_layout(std::string_view guard, std::string_view then_text,
                      std::string_view else_text);

// The operand of a prefix '-': parenthesised when it would start with '-' (`--` is a comment).
std::string neg_operand(const Doc& d);

}  // namespace adlang::layout
