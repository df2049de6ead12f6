// What every fuzz target shares: the input as a file the commands can read, the inputs'
// values, and the check that a command ended with one of its documented exit codes.
//
// An input is a .ad program (or a Python script for fuzz_pyrewrite). Comment lines
// `-- env NAME=VALUE` at the start of a line give values to the program's free variables, as
// --env does on the command line, and so do the --env arguments of the first documented run
// (`-- $ adlang run FILE --env x=0.5`, as in examples/), so that programs with inputs get past
// the loader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "driver/command_options.hpp"

namespace adlang::fuzz {

struct FuzzInput {
  std::string text;
  std::string path;              // a file holding `text` (an in-memory file of this process)
  std::vector<std::string> env;  // from the `-- env NAME=VALUE` lines
};

// Writes the bytes to this process's in-memory file and reads its env lines.
FuzzInput make_input(const std::uint8_t* data, std::size_t size);

// Options for one bounded run: small fuel and trace, derivative and time budgets, so that one
// input takes milliseconds (libFuzzer's -timeout catches anything slower).
void bound(CommonOptions& o);

// Aborts (a finding) unless `code` is one of `allowed` exit codes; prints the command's output.
void expect_exit(int code, std::initializer_list<int> allowed, const std::string& what,
                 const std::string& output);

}  // namespace adlang::fuzz
