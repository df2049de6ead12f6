// Running the adlang binary from tests: arguments, working directory, captured output and
// exit code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace adlang::test {

struct ProcessResult {
  int exit_code = -1;
  std::string out, err;
  double seconds = 0;            // wall time
  double cpu_seconds = 0;        // user + system time of the process
  std::uint64_t peak_bytes = 0;  // peak resident memory of the process
};

// The adlang binary under test (ADLANG_BINARY, set by CTest).
std::string adlang_binary();

// Runs `program args...` in `cwd` (empty: current directory) with `stdin_text` as input.
ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::string& cwd = "", const std::string& stdin_text = "");

// Splits a command line as a POSIX shell would for simple cases: white space separates
// words, single and double quotes group.
std::vector<std::string> split_command_line(const std::string& line);

}  // namespace adlang::test
