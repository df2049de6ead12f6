// The deliberately broken variants of the checker's teeth tests (tests/checker/CMakeLists.txt
// builds each from a production source with one textual change and its entry points renamed).
#pragma once

#include <string>
#include <vector>

#include "checker/runner.hpp"

namespace adlang::mutants {

// The mutants' names, in the order of docs/checker.md's kill table.
const std::vector<std::string>& names();

// The checker's configuration with the named mutant in place of the production code.
checker::CheckConfig config(const std::string& name);

}  // namespace adlang::mutants
