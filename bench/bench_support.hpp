// Shared helpers of the benchmarks: programs loaded the way `adlang` loads them, a reporter
// that keeps the best time of each benchmark, and peak-memory readings.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "driver/program_loader.hpp"
#include "semantics/environment.hpp"

namespace adlang::bench {

inline std::string source_dir() {
  return ADLANG_SOURCE_DIR;
}

// Parses and type-checks `path` with the --env inputs `env`, in double precision.
inline std::unique_ptr<LoadedProgram<double>> load(const std::string& path,
                                                   const std::vector<std::string>& env) {
  CommonOptions o;
  o.file = path;
  o.env = env;
  std::shared_ptr<SourceFile> file;
  return load_program<double>(o, file);
}

inline ValueEnv<double> inputs_of(const LoadedProgram<double>& p) {
  ValueEnv<double> rho;
  for (const auto& in : p.inputs)
    rho.push(in.name, in.value);
  return rho;
}

// A console reporter that also records, per benchmark name, the best time per iteration
// (seconds) over its repetitions: `best` is CPU time of the benchmark's thread (what the
// comparisons use: this machine may be shared, and CPU time is what a program costs whatever
// else runs), `best_wall` is wall-clock time.
class BestTimeReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration || r.iterations == 0) continue;
      double t = r.cpu_accumulated_time / static_cast<double>(r.iterations);
      double wall = r.real_accumulated_time / static_cast<double>(r.iterations);
      std::string name =
          r.run_name.function_name + (r.run_name.args.empty() ? "" : "/" + r.run_name.args);
      auto it = best.find(name);
      if (it == best.end() || t < it->second) best[name] = t;
      auto w = best_wall.find(name);
      if (w == best_wall.end() || wall < w->second) best_wall[name] = wall;
    }
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> best, best_wall;
};

// The peak resident set size of this process so far, in MiB (VmHWM), and a reset of it
// (writing 5 to /proc/self/clear_refs), so that a phase's peak can be read on its own.
inline double peak_rss_mib() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  double kib = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmHWM: %lf kB", &kib) == 1) break;
  std::fclose(f);
  return kib / 1024.0;
}

inline void reset_peak_rss() {
  if (std::FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
    std::fputs("5", f);
    std::fclose(f);
  }
}

// Runs a shell command and returns its standard output.
inline std::string capture(const std::string& command) {
  std::string out;
  if (std::FILE* p = popen(command.c_str(), "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, p))
      out += buf;
    pclose(p);
  }
  return out;
}

}  // namespace adlang::bench
