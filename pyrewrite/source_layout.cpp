#include "pyrewrite/source_layout.hpp"

#include <algorithm>

namespace adlang::py {

SourceLayout::SourceLayout(const std::string& text) : text_(text), unit_("    "), newline_("\n") {
  starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') starts_.push_back(i + 1);
  std::size_t first_nl = text_.find('\n');
  if (first_nl != std::string::npos && first_nl > 0 && text_[first_nl - 1] == '\r')
    newline_ = "\r\n";
  // The indentation unit: the first line after a line ending in ':' that is indented more.
  std::string_view prev_indent;
  bool after_colon = false;
  for (std::uint32_t l = 1; l <= starts_.size(); ++l) {
    std::size_t b = line_begin(l);
    std::size_t e = line_end_with_newline(l);
    std::string_view line(text_.data() + b, e - b);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' ' ||
                             line.back() == '\t'))
      line.remove_suffix(1);
    std::size_t ind = line.find_first_not_of(" \t");
    if (ind == std::string_view::npos || line[ind] == '#') continue;
    std::string_view indent = line.substr(0, ind);
    if (after_colon && indent.size() > prev_indent.size() &&
        indent.substr(0, prev_indent.size()) == prev_indent) {
      unit_ = std::string(indent.substr(prev_indent.size()));
      break;
    }
    after_colon = line.back() == ':';
    prev_indent = indent;
  }
}

std::size_t SourceLayout::line_begin(std::uint32_t line) const {
  if (line == 0) return 0;
  if (line > starts_.size()) return text_.size();
  return starts_[line - 1];
}

std::size_t SourceLayout::line_end_with_newline(std::uint32_t line) const {
  if (line >= starts_.size()) return text_.size();
  return starts_[line];
}

std::size_t SourceLayout::offset(std::uint32_t line, std::uint32_t col) const {
  return std::min(line_begin(line) + col, text_.size());
}

std::string_view SourceLayout::source(const Node& n) const {
  std::size_t b = begin(n), e = end(n);
  return std::string_view(text_).substr(b, e > b ? e - b : 0);
}

std::string_view SourceLayout::indentation(std::uint32_t line) const {
  std::size_t b = line_begin(line), e = line_end_with_newline(line);
  std::size_t i = b;
  while (i < e && (text_[i] == ' ' || text_[i] == '\t'))
    ++i;
  return std::string_view(text_).substr(b, i - b);
}

}  // namespace adlang::py
