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

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);
  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  // The text of 1-based line `line`, without its newline; empty if out of range.
  std::string_view line_text(std::uint32_t line) const;

 private:
  std::string path_;
  std::string text_;
  std::vector<std::size_t> line_starts_;
};

}  // namespace adlang
