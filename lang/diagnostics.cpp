#include "lang/diagnostics.hpp"

#include <algorithm>
#include <string_view>

namespace adlang {

namespace {

const char* severity_word(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

// What stands for the part of a long source line left out.
constexpr std::string_view kClipped = "...";

bool utf8_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

SourceExcerpt excerpt_around(std::string_view line, std::size_t caret) {
  SourceExcerpt e{0, line.size(), false, false};
  if (line.size() <= kLongSourceLine) return e;
  const std::size_t half = kLongSourceLine / 2;
  e.begin = caret > half ? caret - half : 0;
  while (e.begin < caret && utf8_continuation(line[e.begin]))
    ++e.begin;
  e.end = std::min(line.size(), caret + half);
  while (e.end > caret && e.end < line.size() && utf8_continuation(line[e.end]))
    --e.end;
  e.clipped_before = e.begin > 0;
  e.clipped_after = e.end < line.size();
  return e;
}

std::string render(const Diagnostic& d, const SourceFile* file, const std::string& path) {
  std::string out = file ? file->path() : path;
  if (d.loc.known()) {
    std::uint32_t line = d.loc.line;
    if (file) {
      SourceOrigin o = file->origin_of(d.loc.line);  // a REPL definition's own line
      out = o.name;
      line = o.line;
    }
    out += ':' + std::to_string(line) + ':' + std::to_string(d.loc.col);
  }
  if (!out.empty()) out += ": ";
  out += severity_word(d.severity);
  out += ": ";
  out += d.message;
  out += '\n';
  if (file && d.loc.known()) {
    std::string_view line = file->line_text(d.loc.line);
    if (!line.empty() || d.loc.col <= 1) {
      const std::size_t caret = std::min<std::size_t>(d.loc.col - 1, line.size());
      const SourceExcerpt shown = excerpt_around(line, caret);
      out += "  ";
      if (shown.clipped_before) out += kClipped;
      out += line.substr(shown.begin, shown.end - shown.begin);
      if (shown.clipped_after) out += kClipped;
      out += "\n  ";
      if (shown.clipped_before) out += std::string(kClipped.size(), ' ');
      // Tabs stay tabs so the caret lines up under the column in any tab width.
      for (std::size_t i = shown.begin; i < caret; ++i)
        out += line[i] == '\t' ? '\t' : ' ';
      out += "^\n";
    }
  }
  for (const std::string& n : d.notes)
    out += "note: " + n + '\n';
  return out;
}

void internal_failure(const char* what) {
  throw InternalError(std::string("internal error: ") + what);
}

}  // namespace adlang
