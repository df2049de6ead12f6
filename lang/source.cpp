#include "lang/source.hpp"

#include <utility>

namespace adlang {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

SourceFile::SourceFile(std::string path, std::string text, std::vector<SourcePiece> pieces)
    : SourceFile(std::move(path), std::move(text)) {
  pieces_ = std::move(pieces);
}

SourceOrigin SourceFile::origin_of(std::uint32_t line) const {
  const SourcePiece* piece = nullptr;
  for (const SourcePiece& p : pieces_)
    if (p.line <= line) piece = &p;
  if (!piece) return SourceOrigin{path_, line};
  return SourceOrigin{piece->origin, piece->origin_line + (line - piece->line)};
}

std::string_view SourceFile::line_text(std::uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  std::size_t begin = line_starts_[line - 1];
  std::size_t end = line < line_starts_.size() ? line_starts_[line] - 1 : text_.size();
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

}  // namespace adlang
