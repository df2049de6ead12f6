// Derivation trees (semantics/derivation.hpp) for people and tools: indented text (conclusion
// first, premises indented below it), JSON, and LaTeX with mathpartir's \inferrule (a
// document that pdflatex compiles with Debian's texlive-science).
#pragma once

#include <cstddef>
#include <string>

#include "semantics/derivation.hpp"

namespace adlang {

enum class DerivationFormat { Text, Json, Latex };

struct DerivationView {
  DerivationFormat format = DerivationFormat::Text;
  // Premises deeper than this are elided (the root is depth 0).
  std::size_t max_depth = 40;
  // At most this many judgements are shown; the rest are elided.
  std::size_t max_judgements = 400;
  // A call of a function inside a call of the same function shows only its conclusion.
  bool fold_recursion = false;
};

std::string render_derivation(const Derivation& d, const DerivationView& view);

}  // namespace adlang
