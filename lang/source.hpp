// Source files and locations. Every IR node keeps the location of the text it came from, so
// that errors found late (at run time, inside a derivative) still point at the program.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace adlang {

// A 1-based line and column; line 0 means "no location" (e.g. a term built by a test).
struct SourceLoc {
  std::uint32_t line = 0;
  std::uint32_t col = 0;
  bool known() const { return line != 0; }
  bool operator==(const SourceLoc&) const = default;
};

// A piece of a text assembled from several sources (the REPL's program: definitions typed on
// different lines of the session or loaded from a file, then the input): from line `line` of the
// text on, the lines are those of `origin` from `origin_line` on.
struct SourcePiece {
  std::uint32_t line = 1;
  std::string origin;
  std::uint32_t origin_line = 1;
};

// Where a diagnostic says a line is: a name and a line in it.
struct SourceOrigin {
  const std::string& name;
  std::uint32_t line;
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);
  // A text assembled from `pieces` (in increasing `line`; the lines before the first are
  // path's own).
  SourceFile(std::string path, std::string text, std::vector<SourcePiece> pieces);
  const std::string& path() const { return path_; }
  // The name and line diagnostics give for `line` of the text: its piece's origin, or path()
  // and `line` itself.
  SourceOrigin origin_of(std::uint32_t line) const;
  const std::string& text() const { return text_; }
  // The text of 1-based line `line`, without its newline; empty if out of range.
  std::string_view line_text(std::uint32_t line) const;

 private:
  std::string path_;
  std::string text_;
  std::vector<std::size_t> line_starts_;
  std::vector<SourcePiece> pieces_;
};

}  // namespace adlang
