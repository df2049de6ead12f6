// Start-up (docs/performance.md, "Start-up"): `adlang run` of a trivial program (`1 + 2`)
// against `lua5.4 -e ''`, against adlang-full (every library linked: what every command
// loaded before the split, cli/full_build.hpp) and, with --old, against another build of
// adlang. Whole processes, started in turns (one of each per round) so that all see the same
// load; the medians of wall time and of the process's CPU time (user + sys), and their ratios,
// from one run.
//
//   startup_bench [--runs N] [--old PATH]   (default 300 rounds)
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.hpp"

using adlang::bench::Process;

int main(int argc, char** argv) {
  int rounds = 300;
  std::string old;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) {
      rounds = std::atoi(argv[++i]);
    } else if (a == "--old" && i + 1 < argc) {
      old = argv[++i];
    } else {
      std::fprintf(stderr, "usage: startup_bench [--runs N] [--old PATH_TO_ADLANG]\n");
      return 2;
    }
  }
  if (rounds < 1) rounds = 1;
  if (!adlang::bench::on_path("lua5.4")) {
    std::fprintf(stderr,
                 "startup_bench: lua5.4 is missing (Debian: lua5.4; scripts/install-deps.sh "
                 "--bench)\n");
    return 1;
  }
  std::filesystem::path program = std::filesystem::temp_directory_path() /
                                  ("startup_bench_" + std::to_string(getpid()) + ".ad");
  std::ofstream(program) << "1 + 2\n";

  std::vector<Process> commands;
  commands.push_back({"lua5.4 -e ''", {"lua5.4", "-e", ""}, {}, {}});
  commands.push_back({"adlang run (1 + 2)", {ADLANG_BINARY, "run", program.string()}, {}, {}});
  commands.push_back(
      {"adlang-full run (1 + 2)", {ADLANG_FULL_BINARY, "run", program.string()}, {}, {}});
  if (!old.empty()) commands.push_back({"old adlang run (1 + 2)", {old, "run", program}, {}, {}});

  bool ok = adlang::bench::run_in_turns(commands, rounds, "startup_bench");
  std::filesystem::remove(program);
  if (!ok) return 1;

  std::printf("start-up: medians of %d runs each, in turns\n", rounds);
  std::vector<adlang::bench::Reference> refs = {{0, "lua"}};
  if (!old.empty()) refs.push_back({commands.size() - 1, "old"});
  adlang::bench::print_medians(commands, refs, 26);
  return 0;
}
