// Strings written one after another as "<size>:<bytes>", read back in the same order: the
// REPL session's snapshot (driver/repl_session.hpp) and the messages a kernel's cell process
// sends the kernel, and the zygote's requests (cli/kernel_cell_messages.hpp, kernel_zygote.cpp).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace adlang {

inline void put_field(std::string& out, const std::string& field) {
  out += std::to_string(field.size()) + ":" + field;
}

// The field at `at`, moving `at` past it. Throws std::invalid_argument if the text is cut off.
inline std::string take_field(const std::string& in, std::size_t& at) {
  std::size_t colon = in.find(':', at);
  if (colon == std::string::npos || colon == at || colon - at > 19)
    throw std::invalid_argument("a length-prefixed field is cut off");
  std::size_t n = std::stoul(in.substr(at, colon - at));
  if (n > in.size() - colon - 1) throw std::invalid_argument("a length-prefixed field is cut off");
  at = colon + 1 + n;
  return in.substr(colon + 1, n);
}

}  // namespace adlang
