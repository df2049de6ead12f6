// The budgets of a graph run (docs/graph.md, "The control Call charges one unit of fuel"):
// what a call refused for want of fuel, of frames or of a resource budget is, and the bound of
// one run (GraphOptions::bound), shared by the executor (executor.hpp) and the reference
// executor (reference_executor.hpp). How the threaded executor shares the fuel and the frame
// count among its workers is its own (executor.cpp, take_fuel and frames_changed).
#pragma once

#include <chrono>
#include <cstdint>

#include "semantics/graph/executor.hpp"
#include "semantics/graph/graph.hpp"
#include "semantics/undefined.hpp"

namespace adlang::graph {

// Out of fuel after `calls` function calls, calling site s's callee.
Undefined fuel_exhausted_error(const Graph& g, const CallSite& s, std::uint64_t calls);

// More than `max_frames` activations live at once, calling site s's callee.
Undefined frames_exhausted_error(const Graph& g, const CallSite& s, std::uint64_t max_frames);

// A call (or an Rd node) at `loc` refused because --timeout or --max-memory ran out (the run
// then reports the budget, or an undefinedness that comes before every refused call).
Undefined budget_refused_error(SourceLoc loc);

// GraphOptions::bound of one run, from its start.
class RunClock {
 public:
  explicit RunClock(const RunBound& b);
  // Whether there is a bound at all.
  bool bounded() const { return bounded_; }
  // Throws RunBoundExceeded when the run has taken longer, or grown resident memory by more,
  // than its bound.
  void check() const;

 private:
  const RunBound bound_;
  const bool bounded_;
  const std::chrono::steady_clock::time_point started_;
  const std::uint64_t resident_at_start_;
};

}  // namespace adlang::graph
