// The median of timings (the upper one of an even count): what the whole-process benchmarks
// (startup_bench, conform_bench) report of their runs taken in turns.
#pragma once

#include <algorithm>
#include <vector>

namespace adlang::bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace adlang::bench
