#include "pyrewrite/text_edit.hpp"

#include <algorithm>

#include "lang/diagnostics.hpp"

namespace adlang::py {

namespace {

Edits normalised(Edits edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    // At one offset: insertions first (in their order), then the replacement.
    return (a.begin == a.end) && (b.begin != b.end);
  });
  Edits out;
  for (TextEdit& e : edits) {
    if (std::find(out.begin(), out.end(), e) != out.end()) continue;
    if (!out.empty() && out.back().end > e.begin)
      throw InternalError("internal error: pyrewrite produced overlapping edits at byte " +
                          std::to_string(e.begin) + " ('" + out.back().text + "' / '" + e.text +
                          "')");
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

std::string apply_edits_in(const std::string& original, std::size_t begin, std::size_t end,
                           const Edits& edits) {
  Edits inside;
  for (const TextEdit& e : edits)
    if (e.begin >= begin && e.end <= end) inside.push_back(e);
  inside = normalised(std::move(inside));
  std::string out;
  std::size_t pos = begin;
  for (const TextEdit& e : inside) {
    out.append(original, pos, e.begin - pos);
    out += e.text;
    pos = e.end;
  }
  out.append(original, pos, end - pos);
  return out;
}

std::string apply_edits(const std::string& original, Edits edits) {
  return apply_edits_in(original, 0, original.size(), edits);
}

}  // namespace adlang::py
