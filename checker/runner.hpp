// The `adlang check` driver as a library: runs properties over numbered random programs,
// counts outcomes, shrinks the first failure of each property. Program i of a run is a pure
// function of (seed, i), so a run is deterministic and `--shard I/N` (the programs with
// i mod N = I) splits it across processes or machines.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checker/program.hpp"
#include "checker/property_registry.hpp"

namespace adlang::checker {

struct RunOptions {
  std::vector<std::string> properties;  // names; empty: all
  std::uint64_t count = 1000;           // programs per property (before sharding)
  std::uint64_t seed = 1;
  unsigned max_size = 0;  // 0: kDefaultMaxSize
  unsigned shard_index = 0, shard_count = 1;
  unsigned max_shrink_candidates = 4000;
  // Stop a property at its first failure (the mutation tests; the CLI runs all programs so
  // that the table shows how often a property fails).
  bool stop_after_first_failure = false;
  // Threads that run a property's programs at once (the CLI's --jobs). The report is the same
  // for every number: each program is a pure function of (seed, i), and the verdicts are
  // counted in program order.
  unsigned jobs = 1;
};

struct Counterexample {
  std::string property;
  std::uint64_t seed = 0;
  std::uint64_t index = 0;  // the program's number in the run
  Program original;
  Program shrunk;
  std::string detail;  // the differing results, for the shrunk program
  unsigned shrink_steps = 0;
};

struct PropertySummary {
  std::string name;
  std::uint64_t tried = 0, passed = 0, failed = 0, both_undefined = 0, discarded = 0;
  std::optional<std::uint64_t> first_failure;  // index of the first failing program
  double seconds = 0;
};

struct RunReport {
  std::vector<PropertySummary> properties;
  std::vector<Counterexample> counterexamples;  // at most one per property
  bool passed() const { return counterexamples.empty(); }
};

// Called after each program: the property's counts so far (`tried` is the programs done,
// `seconds` the time so far) and its programs in total (this shard). With jobs > 1 it is
// called from the threads that run programs, one call at a time.
using ProgressFn = std::function<void(const PropertySummary&, std::uint64_t)>;

// Throws std::invalid_argument for an unknown property name.
RunReport run_checks(const RunOptions& options, const CheckConfig& config,
                     const ProgressFn& progress = {});

// The seed of the extra random choices for program `index` (cotangents, directions, n).
std::uint64_t case_seed(std::uint64_t seed, std::uint64_t index);

}  // namespace adlang::checker
