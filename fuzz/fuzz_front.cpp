// Fuzz target: the front end of every command (lexer, parser, --env reader, type checker):
// any input ends in one of the documented exit codes, never a crash or an internal error.
#include <sstream>

#include "driver/command_runner.hpp"
#include "driver/program_loader.hpp"
#include "fuzz/fuzz_input.hpp"
#include "support/exit_codes.hpp"

using namespace adlang;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::FuzzInput in = fuzz::make_input(data, size);
  CommonOptions o;
  o.file = in.path;
  o.env = in.env;
  std::ostringstream out, err;
  std::shared_ptr<SourceFile> file;
  int code = run_guarded(false, out, err, file, [&] {
    load_program<double>(o, file);
    return int(kExitOk);
  });
  fuzz::expect_exit(code, {kExitOk, kExitUndefined, kExitUsage, kExitCompileError}, "load",
                    err.str());
  return 0;
}
