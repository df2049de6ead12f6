// The files of a picture drawn on several pages (a long trace, adlang trace --format svg):
// page 1 into the output's own name, page k > 1 with -k before its extension (t.svg, t-2.svg).
// Defined in trace_picture_command.cpp; the kernel reads the pages back by these names.
#pragma once

#include <cstddef>
#include <string>

namespace adlang {

std::string page_file(const std::string& output, std::size_t k);

}  // namespace adlang
