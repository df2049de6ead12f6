// Fuzz target: the denotational evaluator (adlang den, Fig. 7) with small fuel and few
// Kleene approximants.
#include <sstream>

#include "driver/commands.hpp"
#include "fuzz/fuzz_input.hpp"
#include "support/exit_codes.hpp"

using namespace adlang;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::FuzzInput in = fuzz::make_input(data, size);
  DenOptions o;
  o.file = in.path;
  o.env = in.env;
  fuzz::bound(o);
  o.max_approximant = 64;
  std::ostringstream out, err;
  fuzz::expect_exit(den_command(o, out, err),
                    {kExitOk, kExitUndefined, kExitUsage, kExitCompileError}, "den", err.str());
  return 0;
}
