// A cell of the Jupyter kernel (`adlang kernel`, docs/kernel.md) as the inputs it holds, in
// order: definitions, terms, the REPL's `:commands`, and magics (`%trace`, `%diff x`, `%den`,
// `%check N`, `%plot x A B`, `%set ...`), each with the cell line it starts on.
//
// A definition runs from `def` to its `;`; a term continues on the next lines while it is not
// yet a whole term (`let y = 2 in` / `y * y`) and on the indented lines after it; a line that
// starts with `:` or `%` is one command. A magic that applies to a term without one on its own line
// (`%diff x`, `%plot x A B`, a bare `%trace`) takes the next term of the cell; definitions before
// that term are handled first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace adlang {

struct CellInput {
  std::uint32_t line = 1;  // the cell's line (from 1) the input starts on
  // "" for a definition, a term or a `:command`; else the magic's name without `%`
  // (trace, diff, den, check, plot, type, derivation, or an unknown one, which is reported).
  std::string magic;
  std::string args;  // the magic's own arguments: diff NAME, check N, plot NAME FROM TO
  std::string text;  // the definition, term or `:command`; for a magic, its term ("" if none)
  std::uint32_t text_line = 1;  // the cell's line the text starts on
};

std::vector<CellInput> split_cell(const std::string& cell);

// False while the cell ends inside a definition (no `;` yet): a console asks for more lines.
bool cell_is_complete(const std::string& cell);

}  // namespace adlang
