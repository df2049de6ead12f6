// Golden files for the pyrewrite tests: reading them, comparing with what the rewriter printed,
// and regenerating them (ADLANG_UPDATE_GOLDEN=1) for review.
#pragma once

#include <string>
#include <vector>

#include "pyrewrite/pyrewrite.hpp"

namespace adlang::test {

std::string source_dir();
std::string read_file(const std::string& path);
bool file_exists(const std::string& path);
// The files of `dir` whose names end in `suffix`, sorted.
std::vector<std::string> files_with_suffix(const std::string& dir, const std::string& suffix);
bool update_golden();
void write_file(const std::string& path, const std::string& text);

// What the golden .log file of a rewrite holds: status, pattern, rendered diagnostics, and the
// rules that fired.
std::string render_log(const std::string& label, const std::string& input,
                       const py::RewriteResult& r);

// Compares `actual` with the golden file `path` (or rewrites the file in update mode).
void expect_golden(const std::string& path, const std::string& actual);

// The checks every rewrite must pass: the output parses, comment lines survive (in order), a
// second rewrite leaves the output alone. (Byte-identity of untouched lines is what the golden
// after-files pin down, and untouched_lines_are_byte_identical in end_to_end_test.cpp checks.)
void expect_well_formed(const std::string& label, const std::string& input,
                        const py::RewriteResult& r);

}  // namespace adlang::test
