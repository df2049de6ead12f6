// Fuzz target: symbolic evaluation (adlang trace, Figs. 4-5) and both Rs (adlang diff with
// --ad paper, Fig. 6, and --ad linear) with respect to the first input.
#include <sstream>

#include "driver/commands.hpp"
#include "fuzz/fuzz_input.hpp"
#include "support/exit_codes.hpp"

using namespace adlang;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::FuzzInput in = fuzz::make_input(data, size);
  const std::initializer_list<int> allowed = {kExitOk, kExitUndefined, kExitUsage,
                                              kExitCompileError};
  TraceOptions t;
  t.file = in.path;
  t.env = in.env;
  fuzz::bound(t);
  std::ostringstream out, err;
  fuzz::expect_exit(trace_command(t, out, err), allowed, "trace", err.str());
  if (in.env.empty()) return 0;
  for (AdMode ad : {AdMode::Paper, AdMode::Linear}) {
    DiffOptions d;
    d.file = in.path;
    d.env = in.env;
    d.ad = ad;
    d.wrt = in.env.front().substr(0, in.env.front().find('='));
    fuzz::bound(d);
    std::ostringstream dout, derr;
    fuzz::expect_exit(diff_command(d, dout, derr), allowed, "diff", derr.str());
  }
  return 0;
}
