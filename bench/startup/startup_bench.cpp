// Start-up (docs/performance.md, "Start-up"): `adlang run` of a trivial program (`1 + 2`)
// against `lua5.4 -e ''`, against adlang-full (every library linked: what every command
// loaded before the split, cli/full_build.hpp) and, with --old, against another build of
// adlang. Whole processes, started in turns (one of each per round) so that all see the same
// load; the medians of wall time and of the process's CPU time (user + sys), and their ratios,
// from one run.
//
//   startup_bench [--runs N] [--old PATH]   (default 300 rounds)
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "median.hpp"

namespace {

using adlang::bench::median;

struct Command {
  std::string label;
  std::vector<std::string> argv;
  std::vector<double> wall_ms, cpu_ms;
};

// Runs argv once with standard output and error on /dev/null; false if it did not exit 0.
bool run_once(Command& c) {
  std::vector<char*> argv;
  for (std::string& a : c.argv)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  auto end = std::chrono::steady_clock::now();
  c.wall_ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  c.cpu_ms.push_back((usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
                     (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool on_path(const std::string& tool) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t at = 0;
  while (at <= dirs.size()) {
    std::size_t end = dirs.find(':', at);
    if (end == std::string::npos) end = dirs.size();
    if (access((dirs.substr(at, end - at) + "/" + tool).c_str(), X_OK) == 0) return true;
    at = end + 1;
  }
  return false;
}

}  // namespace

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
  if (!on_path("lua5.4")) {
    std::fprintf(stderr,
                 "startup_bench: lua5.4 is missing (Debian: lua5.4; scripts/install-deps.sh "
                 "--bench)\n");
    return 1;
  }
  std::filesystem::path program = std::filesystem::temp_directory_path() /
                                  ("startup_bench_" + std::to_string(getpid()) + ".ad");
  std::ofstream(program) << "1 + 2\n";

  std::vector<Command> commands;
  commands.push_back({"lua5.4 -e ''", {"lua5.4", "-e", ""}, {}, {}});
  commands.push_back({"adlang run (1 + 2)", {ADLANG_BINARY, "run", program.string()}, {}, {}});
  commands.push_back(
      {"adlang-full run (1 + 2)", {ADLANG_FULL_BINARY, "run", program.string()}, {}, {}});
  if (!old.empty()) commands.push_back({"old adlang run (1 + 2)", {old, "run", program}, {}, {}});

  int status = 0;
  for (Command& c : commands)  // one run each first: page cache, and a check that it works
    if (!run_once(c)) {
      std::fprintf(stderr, "startup_bench: '%s' failed\n", c.label.c_str());
      status = 1;
    }
  for (Command& c : commands) {
    c.wall_ms.clear();
    c.cpu_ms.clear();
  }
  for (int r = 0; r < rounds && status == 0; ++r)
    for (Command& c : commands)
      run_once(c);
  std::filesystem::remove(program);
  if (status != 0) return status;

  const double lua_wall = median(commands[0].wall_ms), lua_cpu = median(commands[0].cpu_ms);
  const double old_wall = old.empty() ? 0 : median(commands.back().wall_ms);
  const double old_cpu = old.empty() ? 0 : median(commands.back().cpu_ms);
  std::printf("start-up: medians of %d runs each, in turns\n", rounds);
  std::printf("%-26s %9s %9s %10s %10s", "command", "wall ms", "CPU ms", "wall/lua", "CPU/lua");
  if (!old.empty()) std::printf(" %10s %10s", "wall/old", "CPU/old");
  std::printf("\n");
  for (const Command& c : commands) {
    double w = median(c.wall_ms), u = median(c.cpu_ms);
    std::printf("%-26s %9.2f %9.2f %10.2f %10.2f", c.label.c_str(), w, u, w / lua_wall,
                u / lua_cpu);
    if (!old.empty()) std::printf(" %10.2f %10.2f", w / old_wall, u / old_cpu);
    std::printf("\n");
  }
  return 0;
}
