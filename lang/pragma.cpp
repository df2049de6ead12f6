#include "lang/pragma.hpp"

namespace adlang {

std::optional<std::string> predicates_pragma(std::string_view text) {
  // The leading lines that are blank or comments.
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos) {
      line.remove_prefix(first);
      if (line.substr(0, 2) != "--") return std::nullopt;  // the program has begun
      if (line.substr(0, kPragmaPrefix.size()) == kPragmaPrefix) {
        std::string_view rest = line.substr(kPragmaPrefix.size());
        while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t'))
          rest.remove_suffix(1);
        if (rest == "predicates total") return "total";
        if (rest == "predicates strict") return "strict";
      }
    }
    at = end + 1;
  }
  return std::nullopt;
}

std::string predicates_pragma_line(const std::string& predicates) {
  return std::string(kPragmaPrefix) + "predicates " + predicates + "\n";
}

}  // namespace adlang
