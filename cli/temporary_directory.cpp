#include "cli/temporary_directory.hpp"

#include <unistd.h>

#include <cstdlib>

namespace adlang {

std::string make_temporary_directory(const std::string& prefix) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "-XXXXXX";
  return mkdtemp(pattern.data()) ? pattern : std::string();
}

}  // namespace adlang
