// Fuzz target: ordinary evaluation (adlang run, the compiled evaluator and the tape of rd) with
// small fuel and trace budgets.
#include <sstream>

#include "driver/commands.hpp"
#include "fuzz/fuzz_input.hpp"
#include "support/exit_codes.hpp"

using namespace adlang;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::FuzzInput in = fuzz::make_input(data, size);
  for (AdMode ad : {AdMode::Linear, AdMode::Paper}) {
    CommonOptions o;
    o.file = in.path;
    o.env = in.env;
    o.ad = ad;
    fuzz::bound(o);
    std::ostringstream out, err;
    int code = run_command(o, out, err);
    fuzz::expect_exit(code, {kExitOk, kExitUndefined, kExitUsage, kExitCompileError}, "run",
                      err.str());
  }
  return 0;
}
