// Whole processes timed in turns: what startup_bench and interp_bench share. Each command is
// started once per round, one after another, so that all see the same load; the tables give the
// medians (median.hpp) of wall time and of the process's CPU time (user + sys), and their
// ratios to chosen reference commands, all from one run (docs/performance.md, "How this page
// is organised").
#pragma once

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "median.hpp"

namespace adlang::bench {

struct Process {
  std::string label;
  std::vector<std::string> argv;
  std::vector<double> wall_ms, cpu_ms;
};

// Runs argv once with standard output and error on /dev/null; false if it did not exit 0.
inline bool run_once(Process& c) {
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

inline bool on_path(const std::string& tool) {
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

// One run of each first (page cache, and a check that each works: a failure is reported under
// `who` and ends with false), then `rounds` rounds in turns.
inline bool run_in_turns(std::vector<Process>& commands, int rounds, const char* who) {
  bool ok = true;
  for (Process& c : commands)
    if (!run_once(c)) {
      std::fprintf(stderr, "%s: '%s' failed\n", who, c.label.c_str());
      ok = false;
    }
  for (Process& c : commands) {
    c.wall_ms.clear();
    c.cpu_ms.clear();
  }
  for (int r = 0; r < rounds && ok; ++r)
    for (Process& c : commands)
      run_once(c);
  return ok;
}

// A reference column pair of the table: each command's medians divided by commands[index]'s.
struct Reference {
  std::size_t index;
  std::string name;  // the columns are "wall/name" and "CPU/name"
};

inline void print_medians(const std::vector<Process>& commands, const std::vector<Reference>& refs,
                          int label_width) {
  std::printf("%-*s %9s %9s", label_width, "command", "wall ms", "CPU ms");
  for (const Reference& r : refs)
    std::printf(" %11s %11s", ("wall/" + r.name).c_str(), ("CPU/" + r.name).c_str());
  std::printf("\n");
  for (const Process& c : commands) {
    double w = median(c.wall_ms), u = median(c.cpu_ms);
    std::printf("%-*s %9.2f %9.2f", label_width, c.label.c_str(), w, u);
    for (const Reference& r : refs)
      std::printf(" %11.2f %11.2f", w / median(commands[r.index].wall_ms),
                  u / median(commands[r.index].cpu_ms));
    std::printf("\n");
  }
}

}  // namespace adlang::bench
