#include "semantics/graph/budgets.hpp"

#include <string>

#include "support/resource_budget.hpp"
#include "support/setting_hint.hpp"

namespace adlang::graph {

Undefined fuel_exhausted_error(const Graph& g, const CallSite& s, std::uint64_t calls) {
  return Undefined(UndefinedKind::Fuel, s.loc,
                   "out of fuel after " + std::to_string(calls) + " function calls in '" +
                       function_name(g.bodies[s.callee]) + "'",
                   {"the recursion may not terminate; raise the limit with " +
                    setting_hint(Setting::Fuel, "N")});
}

Undefined frames_exhausted_error(const Graph& g, const CallSite& s, std::uint64_t max_frames) {
  return Undefined(UndefinedKind::Depth, s.loc,
                   "more than " + std::to_string(max_frames) +
                       " activations are live at once (calling '" +
                       function_name(g.bodies[s.callee]) + "')",
                   {"the graph keeps a frame per live activation; raise the limit with " +
                    setting_hint(Setting::MaxFrames, "N")});
}

Undefined budget_refused_error(SourceLoc loc) {
  return Undefined(UndefinedKind::Depth, loc, "a resource budget is exhausted", {});
}

RunClock::RunClock(const RunBound& b)
    : bound_(b),
      bounded_(b.seconds > 0 || b.memory_growth_bytes > 0),
      started_(std::chrono::steady_clock::now()) {}

void RunClock::check() const {
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (bound_.seconds > 0 && took > bound_.seconds)
    throw RunBoundExceeded("the run took more than its bound of " + std::to_string(bound_.seconds) +
                           " s");
  if (bound_.memory_growth_bytes > 0) {
    const std::uint64_t now = resident_memory_bytes();
    std::uint64_t base = 0;
    if (resident_at_first_poll_.compare_exchange_strong(base, now)) base = now;
    if (now > base && now - base > bound_.memory_growth_bytes)
      throw RunBoundExceeded("the run grew resident memory by more than its bound of " +
                             std::to_string(bound_.memory_growth_bytes >> 20) + " MiB");
  }
}

}  // namespace adlang::graph
