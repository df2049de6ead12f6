// A fresh directory under $TMPDIR (or /tmp), for the kernel's cells and the pictures they draw.
#pragma once

#include <string>

namespace adlang {

// Creates $TMPDIR/PREFIX-XXXXXX with mkdtemp and returns its path, or "" if it cannot.
std::string make_temporary_directory(const std::string& prefix);

}  // namespace adlang
