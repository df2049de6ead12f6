// Edits to the original text: replace the bytes [begin, end) by `text` (an insertion when
// begin == end). The rewriter's whole output is a set of these, so untouched bytes stay identical.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace adlang::py {

struct TextEdit {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
  bool operator==(const TextEdit&) const = default;
};

using Edits = std::vector<TextEdit>;

// Applies `edits` to `original`. Insertions at one offset keep their order; an edit identical to
// an earlier one is applied once. Overlapping replacements are a bug in a rule: InternalError.
std::string apply_edits(const std::string& original, Edits edits);

// `original`'s bytes [begin, end) with those `edits` that lie inside applied.
std::string apply_edits_in(const std::string& original, std::size_t begin, std::size_t end,
                           const Edits& edits);

}  // namespace adlang::py
