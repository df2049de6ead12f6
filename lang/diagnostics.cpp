#include "lang/diagnostics.hpp"

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

}  // namespace

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
      out += "  ";
      out += line;
      out += "\n  ";
      // Tabs stay tabs so the caret lines up under the column in any tab width.
      for (std::uint32_t i = 1; i < d.loc.col && i - 1 < line.size(); ++i)
        out += line[i - 1] == '\t' ? '\t' : ' ';
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
