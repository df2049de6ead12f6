// The export family of checker properties (conform/export_property.cpp): the plain-Python
// export means what the program means. Run only when named (`--property export-round-trip`),
// since it runs Python; a command adds it to the checker's table before a run.
#pragma once

#include <vector>

#include "checker/property_registry.hpp"

namespace adlang::checker {

// The family's entries.
const std::vector<PropertyInfo>& export_properties();

// Adds them to the properties `--property NAME` finds (add_on_request_properties).
void add_export_properties();

}  // namespace adlang::checker
