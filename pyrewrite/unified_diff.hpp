// A unified diff (`diff -u` format, three lines of context) between two texts, for --diff.
#pragma once

#include <string>

namespace adlang::py {

// The diff from `before` (labelled `from_label`) to `after` (`to_label`); empty when equal.
std::string unified_diff(const std::string& before, const std::string& after,
                         const std::string& from_label, const std::string& to_label);

}  // namespace adlang::py
