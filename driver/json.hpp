// Minimal JSON output helpers for --json (no parsing needed).
#pragma once

#include <string>
#include <string_view>

namespace adlang::json {

// A JSON string literal with the necessary escapes.
std::string quote(std::string_view s);

}  // namespace adlang::json
