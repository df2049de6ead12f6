// Running a rendering tool (Graphviz's dot, gnuplot) as a process: its input on a pipe, its
// diagnostics collected. The tools are Debian packages that scripts/install-deps.sh installs.
#pragma once

#include <string>
#include <vector>

namespace adlang {

struct ToolResult {
  int exit_code = -1;    // -1: could not be started
  std::string messages;  // its standard error (and why it could not start)
  std::string output;    // its standard output, when asked for
};

// Runs argv[0] (looked up on PATH) with `input` on its standard input; its standard output is
// discarded (the tools write their files themselves), or with `keep_output` collected into
// ToolResult::output (a picture drawn into memory).
ToolResult run_tool(const std::vector<std::string>& argv, const std::string& input,
                    bool keep_output = false);

}  // namespace adlang
