// The text without the white space (blanks, tabs, line ends) around it: how the REPL and the
// kernel's cells read their inputs.
#pragma once

#include <string>

namespace adlang {

inline std::string trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  std::size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

}  // namespace adlang
