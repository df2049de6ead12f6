// The resource budget of one process: a memory budget and a time budget (docs/robustness.md).
//
// Every engine that can grow (symbolic traces, both Rs and their output, the compiled
// evaluator's tape, the denotational evaluator, the checker's programs, the graph's frames)
// calls check_resources() at each of its steps. The call is one relaxed atomic load: a watchdog
// thread measures the process's resident memory and the elapsed time a hundred times a second
// and raises the flag that check_resources() reads, so the budgets are one object read
// everywhere, not a count kept by each engine. The first check after the flag is raised throws
// BudgetExceeded, which the commands report as undefined (exit 1) naming the budget and the
// flag that raises it. A program that stops polling (a bug) is ended by the watchdog itself a
// few seconds after crossing a budget, with the same message.
//
// The watchdog is started by the first poll after the budget has run for one tick (10 ms), so
// that a short run starts no thread (docs/robustness.md, "How the budgets are enforced"): until
// then the flag stays raised and the polls take the slow path, which reads the clock every 64th
// poll. A process forked after its watchdog started has no watchdog thread; its next poll
// starts one.
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace adlang {

enum class BudgetKind {
  Memory,  // resident memory above --max-memory
  Time,    // running longer than --timeout
};

// Thrown by check_resources() once a budget is exhausted. what() names the budget; notes() say
// which flag raises it.
class BudgetExceeded : public std::runtime_error {
 public:
  BudgetExceeded(BudgetKind kind, std::string what, std::vector<std::string> notes)
      : std::runtime_error(std::move(what)), kind_(kind), notes_(std::move(notes)) {}
  BudgetKind kind() const { return kind_; }
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  BudgetKind kind_;
  std::vector<std::string> notes_;
};

struct BudgetLimits {
  std::uint64_t max_memory_bytes = 0;  // 0: no memory budget
  double timeout_seconds = 0;          // 0: no time budget
};

// The default memory budget: a quarter of the machine's physical memory (at least 256 MiB).
std::uint64_t default_memory_budget();

// Physical memory of the machine and resident memory of this process, in bytes (0 if unknown).
std::uint64_t physical_memory_bytes();
std::uint64_t resident_memory_bytes();

// Starts enforcing `limits` for the rest of the process (or until stop_resource_budget): the
// watchdog thread starts at the first poll one tick later; a second call replaces the limits
// and restarts the clock.
void start_resource_budget(const BudgetLimits& limits);

// Stops enforcing budgets (the flag is lowered; a started watchdog idles).
void stop_resource_budget();

// The limits in force (zeros when none).
BudgetLimits resource_budget_limits();

// Whether this process's watchdog thread is running (it starts at a poll, see above).
bool resource_watchdog_running();

namespace budget_detail {
// Raised when a budget is exhausted, and while a budget's watchdog is still to be started.
inline std::atomic<bool> flag{false};
// The slow path of check_resources(): starts the watchdog when it is due, or throws
// BudgetExceeded when a budget is exhausted; returns otherwise.
[[gnu::cold]] void on_flag();
}  // namespace budget_detail

// Throws BudgetExceeded when a budget is exhausted. Called at every step of every engine that
// can grow; one relaxed atomic load when within budget. A memory budget is re-armed when it is
// reported (the caller unwinds and frees; the watchdog raises the flag again if memory stays
// above the budget); a time budget stays exhausted.
inline void check_resources() {
  if (budget_detail::flag.load(std::memory_order_relaxed)) budget_detail::on_flag();
}

// Returns freed heap memory to the system (malloc_trim), so that resident memory falls after a
// memory budget was reported and the caller carries on (adlang check discards the program).
void release_free_memory();

// Parses a memory size: bytes, or a number with suffix K, M, G, T (powers of 1024; "MiB",
// "GB" and the like are accepted), or a percentage of physical memory ("25%"). Throws
// std::invalid_argument with a message for anything else.
std::uint64_t parse_memory_size(const std::string& text);

// A memory size for messages: "1.5 GiB", "300 MiB".
std::string format_memory_size(std::uint64_t bytes);

}  // namespace adlang
