#include "support/resource_budget.hpp"
#include "support/setting_hint.hpp"

#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <thread>

namespace adlang {

namespace {

using Clock = std::chrono::steady_clock;

// How often the watchdog measures, and how long a raised flag may go unread before the
// watchdog ends the process itself (an engine that does not poll is a bug; this is the net).
constexpr auto kTick = std::chrono::milliseconds(10);
constexpr auto kGrace = std::chrono::seconds(3);
// Before the watchdog starts, a thread's polls read the clock once in this many.
constexpr std::uint32_t kPollsPerClockRead = 64;

struct State {
  std::mutex mutex;
  BudgetLimits limits;
  bool active = false;
  bool watchdog_started = false;
  bool raised = false;  // a budget is exhausted (the flag is raised for it)
  Clock::time_point start;
  Clock::time_point raised_at;  // when the flag was last raised
  BudgetKind kind = BudgetKind::Memory;
  std::uint64_t resident_at_raise = 0;
  // The budget is active and its watchdog not started yet: polls start it one tick after
  // `start`, which they read without the mutex.
  std::atomic<bool> start_due{false};
  std::atomic<Clock::rep> start_ticks{0};
};

State& state() {
  static State* s = new State;  // never destroyed: the watchdog may outlive static destruction
  return *s;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

std::string message(BudgetKind kind, const BudgetLimits& limits, std::uint64_t resident) {
  if (kind == BudgetKind::Time)
    return "the time budget of " + seconds_text(limits.timeout_seconds) + " s is exhausted";
  return "the memory budget of " + format_memory_size(limits.max_memory_bytes) +
         " is exhausted (resident memory " + format_memory_size(resident) + ")";
}

std::vector<std::string> notes(BudgetKind kind) {
  if (kind == BudgetKind::Time)
    return {"raise it with " + setting_hint(Setting::Timeout, "SECONDS") + " (0: no time budget)"};
  return {"raise it with " + setting_hint(Setting::MaxMemory, "SIZE") + " (e.g. " +
          setting_hint(Setting::MaxMemory, "8G") + " or " +
          setting_hint(Setting::MaxMemory, "50%") + ")"};
}

// Ends the process when a raised flag went unread for kGrace, or memory ran far past the
// budget: the same message as BudgetExceeded, exit code 1 (undefined).
[[noreturn]] void end_process(BudgetKind kind, const BudgetLimits& limits, std::uint64_t resident) {
  std::string text = "adlang: error: undefined: " + message(kind, limits, resident) +
                     "\nnote: " + notes(kind).front() + "\n";
  ssize_t ignored = write(STDERR_FILENO, text.data(), text.size());
  (void)ignored;
  _exit(1);
}

// Raises the flag for a budget that is exhausted (called with the mutex held).
void raise(State& s, Clock::time_point now) {
  s.raised = true;
  s.raised_at = now;
  budget_detail::flag.store(true, std::memory_order_relaxed);
}

// Measures at once, then every kTick.
void watchdog() {
  State& s = state();
  for (;; std::this_thread::sleep_for(kTick)) {
    std::unique_lock lock(s.mutex);
    if (!s.active) continue;
    const BudgetLimits limits = s.limits;
    const auto now = Clock::now();
    const std::uint64_t resident = limits.max_memory_bytes ? resident_memory_bytes() : 0;
    if (s.raised) {
      // Far beyond the memory budget, or the flag unread for kGrace: nobody is polling.
      const std::uint64_t hard =
          limits.max_memory_bytes + std::max<std::uint64_t>(limits.max_memory_bytes / 2, 512 << 20);
      if ((limits.max_memory_bytes && resident > hard) || now - s.raised_at > kGrace)
        end_process(s.kind, limits, std::max(resident, s.resident_at_raise));
      continue;
    }
    if (limits.timeout_seconds > 0 &&
        std::chrono::duration<double>(now - s.start).count() > limits.timeout_seconds) {
      s.kind = BudgetKind::Time;
    } else if (limits.max_memory_bytes && resident > limits.max_memory_bytes) {
      s.kind = BudgetKind::Memory;
      s.resident_at_raise = resident;
    } else {
      continue;
    }
    raise(s, now);
  }
}

// Starts the watchdog thread (with the mutex held): the flag now means only an exhausted budget.
void start_watchdog(State& s) {
  s.start_due.store(false, std::memory_order_relaxed);
  s.watchdog_started = true;
  if (!s.raised) budget_detail::flag.store(false, std::memory_order_relaxed);
  std::thread(watchdog).detach();
}

// Arms the start of the watchdog at a poll (with the mutex held).
void arm_start(State& s) {
  s.start_ticks.store(s.start.time_since_epoch().count(), std::memory_order_relaxed);
  s.start_due.store(true, std::memory_order_release);
  budget_detail::flag.store(true, std::memory_order_relaxed);
}

// /proc/self/statm, opened once: "self" is the process that opens it.
std::atomic<int>& statm() {
  static std::atomic<int> fd{open("/proc/self/statm", O_RDONLY | O_CLOEXEC)};
  return fd;
}

#ifndef __EMSCRIPTEN__
// fork() copies the state but not the watchdog thread: the child's next poll starts its own. The
// mutex is held across the fork, so that the child's copy is in a known state, and the child
// opens its own statm (the copied descriptor reads the parent's).
void register_fork_handlers() {
  static const int registered = pthread_atfork(
      [] { state().mutex.lock(); }, [] { state().mutex.unlock(); },
      [] {
        const int parents = statm().exchange(open("/proc/self/statm", O_RDONLY | O_CLOEXEC));
        if (parents >= 0) close(parents);
        State& s = state();
        s.mutex.unlock();
        s.watchdog_started = false;
        if (s.active) arm_start(s);
      });
  (void)registered;
}
#else
void register_fork_handlers() {}  // no fork in WebAssembly
#endif

std::uint64_t cgroup_memory_limit() {
  std::ifstream in("/sys/fs/cgroup/memory.max");
  std::uint64_t v = 0;
  if (in >> v) return v;  // "max" reads as a failure: no limit
  return 0;
}

}  // namespace

std::uint64_t physical_memory_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  std::uint64_t phys = pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
  std::uint64_t cg = cgroup_memory_limit();
  if (cg && (phys == 0 || cg < phys)) phys = cg;
  return phys;
}

std::uint64_t resident_memory_bytes() {
  register_fork_handlers();
  const int fd = statm().load(std::memory_order_relaxed);
  if (fd < 0) return 0;
  char buf[128];
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return 0;
  buf[n] = '\0';
  unsigned long long size = 0, resident = 0;
  if (std::sscanf(buf, "%llu %llu", &size, &resident) != 2) return 0;
  return resident * std::uint64_t(sysconf(_SC_PAGESIZE));
}

std::uint64_t default_memory_budget() {
  std::uint64_t phys = physical_memory_bytes();
  std::uint64_t min = std::uint64_t(256) << 20;
  if (phys == 0) return std::uint64_t(2) << 30;
  return std::max(phys / 4, min);
}

void start_resource_budget(const BudgetLimits& limits) {
  register_fork_handlers();
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.limits = limits;
  s.start = Clock::now();
  s.active = limits.max_memory_bytes != 0 || limits.timeout_seconds > 0;
  s.raised = false;
  budget_detail::flag.store(false, std::memory_order_relaxed);
  s.start_due.store(false, std::memory_order_relaxed);
  if (s.active && !s.watchdog_started) arm_start(s);
}

void stop_resource_budget() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.active = false;
  s.raised = false;
  s.start_due.store(false, std::memory_order_relaxed);
  budget_detail::flag.store(false, std::memory_order_relaxed);
}

BudgetLimits resource_budget_limits() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  return s.active ? s.limits : BudgetLimits{};
}

bool resource_watchdog_running() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  return s.watchdog_started;
}

namespace budget_detail {

void on_flag() {
  State& s = state();
  if (s.start_due.load(std::memory_order_acquire)) {
    thread_local std::uint32_t polls = 0;
    if (++polls % kPollsPerClockRead != 0) return;
    const Clock::time_point start{Clock::duration{s.start_ticks.load(std::memory_order_relaxed)}};
    if (Clock::now() - start < kTick) return;
    std::lock_guard lock(s.mutex);
    if (s.start_due.load(std::memory_order_relaxed)) start_watchdog(s);
    return;
  }
  BudgetKind kind;
  BudgetLimits limits;
  std::uint64_t resident;
  {
    std::lock_guard lock(s.mutex);
    // The flag was raised for the start of the watchdog, which another thread has made.
    if (!s.raised) return;
    kind = s.kind;
    limits = s.limits;
    resident = s.resident_at_raise;
    // A memory budget is re-armed: the caller unwinds and frees, and the watchdog raises the
    // flag again if memory stays above the budget. A time budget stays exhausted.
    if (kind == BudgetKind::Memory) {
      s.raised = false;
      flag.store(false, std::memory_order_relaxed);
    } else {
      s.raised_at = Clock::now();
    }
  }
  throw BudgetExceeded(kind, message(kind, limits, resident), notes(kind));
}

}  // namespace budget_detail

void release_free_memory() {
#ifndef __EMSCRIPTEN__  // WebAssembly memory only grows: nothing to give back
  malloc_trim(0);
#endif
}

std::uint64_t parse_memory_size(const std::string& text) {
  auto bad = [&] {
    return std::invalid_argument("'" + text +
                                 "' is not a memory size (e.g. 512M, 4G, 25% of physical memory)");
  };
  if (text.empty()) throw bad();
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    throw bad();
  }
  if (!std::isfinite(v) || v < 0) throw bad();
  std::string unit = text.substr(used);
  double scale = 1;
  if (unit == "%") {
    if (v > 100) throw bad();
    return std::uint64_t(double(physical_memory_bytes()) * v / 100);
  }
  if (!unit.empty()) {
    char c = unit[0];
    std::string rest = unit.substr(1);
    if (rest != "" && rest != "B" && rest != "iB" && rest != "b") throw bad();
    switch (c) {
      case 'k':
      case 'K':
        scale = 1024.0;
        break;
      case 'm':
      case 'M':
        scale = 1024.0 * 1024;
        break;
      case 'g':
      case 'G':
        scale = 1024.0 * 1024 * 1024;
        break;
      case 't':
      case 'T':
        scale = 1024.0 * 1024 * 1024 * 1024;
        break;
      case 'B':
      case 'b':
        if (!rest.empty()) throw bad();
        break;
      default:
        throw bad();
    }
  }
  double bytes = v * scale;
  if (bytes >= 1.8e19) throw bad();
  return std::uint64_t(bytes);
}

std::string format_memory_size(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", v, units[u]);
  return buf;
}

}  // namespace adlang
