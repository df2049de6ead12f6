// The layout of a Python source text: where lines start, the byte offsets of node spans, the
// indentation of lines and the indentation unit the file uses. The rewriter edits the original
// text (LibCST's lesson, docs/style.md item 12), so every edit is placed through this.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "lang/python/ast/py_ast.hpp"

namespace adlang::py {

class SourceLayout {
 public:
  explicit SourceLayout(const std::string& text);

  const std::string& text() const { return text_; }
  std::size_t line_count() const { return starts_.size(); }
  // Byte offset of (1-based line, 0-based byte column).
  std::size_t offset(std::uint32_t line, std::uint32_t col) const;
  std::size_t begin(const Node& n) const { return offset(n.span.line, n.span.col); }
  std::size_t end(const Node& n) const { return offset(n.span.end_line, n.span.end_col); }
  std::string_view source(const Node& n) const;
  // Start of the 1-based line and the offset just past its newline (or the end of the text).
  std::size_t line_begin(std::uint32_t line) const;
  std::size_t line_end_with_newline(std::uint32_t line) const;
  // The spaces and tabs that start line `line`.
  std::string_view indentation(std::uint32_t line) const;
  // The file's indentation unit: the first indentation step found (four spaces if none).
  const std::string& indent_unit() const { return unit_; }
  // The line ending the file uses ("\n" or "\r\n").
  const std::string& newline() const { return newline_; }

 private:
  const std::string& text_;
  std::vector<std::size_t> starts_;
  std::string unit_;
  std::string newline_;
};

}  // namespace adlang::py
