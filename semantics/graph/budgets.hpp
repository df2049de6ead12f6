// The budgets of a graph run (docs/graph.md, "The control Call charges one unit of fuel"):
// what a call refused for want of fuel, of frames or of a resource budget is, and the bound of
// one run (GraphOptions::bound), shared by the executor (executor.hpp) and the reference
// executor (reference_executor.hpp); and how the executor shares the fuel and the count of live
// frames among its workers (SharedBudgets).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

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

// GraphOptions::bound of one run: its time from its start, and its growth of resident memory
// from its first poll (reading /proc/self/statm at every run's start was 17 reads a program of
// the checker, whose graphs seldom reach a poll).
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
  // Resident memory at the first poll (0 until then); polled by every worker.
  mutable std::atomic<std::uint64_t> resident_at_first_poll_{0};
};

// A worker's share of the run's budgets, with several threads: its unpublished frames and its
// portion of the fuel.
struct WorkerBudget {
  // Frames made minus freed, not yet published; the shared count when this worker last saw it.
  std::int64_t frames_delta = 0;
  std::int64_t frames_seen = 0;
  // The most frames this worker has seen live (frames_seen + frames_delta), so that a run whose
  // batches were never published still reports a peak (a lower bound, as the published one is:
  // see frames_changed).
  std::int64_t frames_peak = 0;
  alignas(64) std::atomic<std::int64_t> fuel{0};  // fuel taken from the pool
};

// The fuel (one budget, taken per control Call) and the count of live frames (--max-frames) of
// one run of the executor, among its workers W (each with a WorkerBudget `budget`). At one
// thread both are exact plain counts; with several, see take_fuel and frames_changed.
template <bool Threaded, class W>
class SharedBudgets {
  template <class T>
  using Shared = std::conditional_t<Threaded, std::atomic<T>, T>;

 public:
  // Frame counts are published in batches with several threads.
  static constexpr std::int64_t kFrameBatch = 16;

  SharedBudgets(const std::vector<std::unique_ptr<W>>& workers, std::uint64_t fuel,
                std::uint64_t max_frames)
      : workers_(workers),
        max_frames_(static_cast<std::int64_t>(
            std::min<std::uint64_t>(max_frames, std::numeric_limits<std::int64_t>::max()))),
        fuel_(fuel),
        fuel_pool_(static_cast<std::int64_t>(std::min<std::uint64_t>(fuel, INT64_MAX))) {}

  // Frames are published to the shared count in batches with several threads (a count
  // touched by every call on both cores costs more than the call); the peak is then exact to
  // within kFrameBatch frames per worker (the budget: frame_allowed).
  [[gnu::always_inline]] inline void frames_changed(WorkerBudget& w, std::int64_t d) {
    if constexpr (!Threaded) {
      // One worker: the count is its own, and exact.
      live_frames_ += d;
      if (d > 0 && live_frames_ > peak_frames_) peak_frames_ = live_frames_;
    } else {
      w.frames_delta += d;
      if (d > 0) w.frames_peak = std::max(w.frames_peak, w.frames_seen + w.frames_delta);
      if (std::abs(w.frames_delta) >= kFrameBatch) publish_frames(w);
    }
  }
  // Threaded: adds w's unpublished frames to the shared count.
  void publish_frames(WorkerBudget& w) {
    const std::int64_t now =
        live_frames_.fetch_add(w.frames_delta, std::memory_order_relaxed) + w.frames_delta;
    std::int64_t peak = peak_frames_.load(std::memory_order_relaxed);
    while (now > peak && !peak_frames_.compare_exchange_weak(peak, now)) {
    }
    w.frames_seen = now;
    w.frames_delta = 0;
  }
  // Whether one more frame stays within --max-frames. With several threads a worker decides
  // from the shared count as it saw it when it last published (reading a count that the other
  // workers write, at every call, cost 8% of tak's time at 2 threads), and reads it afresh
  // before it refuses: a refusal is as exact as the published count, and a stale view lets a
  // worker make at most a batch more (each batch it publishes refreshes its view), so the live
  // frames exceed the budget by fewer than 2 * kFrameBatch per worker (docs/graph.md).
  bool frame_allowed(WorkerBudget& w) {
    if constexpr (!Threaded) {
      return live_frames_ < max_frames_;
    } else {
      if (w.frames_seen + w.frames_delta < max_frames_) return true;
      w.frames_seen = live_frames_.load(std::memory_order_relaxed);
      return w.frames_seen + w.frames_delta < max_frames_;
    }
  }
  std::int64_t live_frames() const { return live_frames_; }
  // The peak of live frames: exact at one thread, a lower bound within kFrameBatch frames per
  // worker with several.
  std::int64_t peak_frames() const {
    std::int64_t peak = peak_frames_;
    for (const auto& w : workers_)
      peak = std::max(peak, w->budget.frames_peak);
    return peak;
  }

  // Fuel is one budget, taken per control Call. With several threads each worker takes it
  // from the pool in small portions; a worker that finds the pool empty takes what the others
  // hold before refusing, so the run is refused exactly when the budget is spent.
  bool take_fuel(WorkerBudget& w) {
    if constexpr (!Threaded) {
      if (fuel_pool_ <= 0) return false;
      --fuel_pool_;
      return true;
    } else {
      for (;;) {
        std::int64_t mine = w.fuel.load(std::memory_order_relaxed);
        while (mine > 0) {
          if (w.fuel.compare_exchange_weak(mine, mine - 1, std::memory_order_relaxed)) return true;
        }
        std::int64_t pool = fuel_pool_.load();
        if (pool > 0) {
          std::int64_t portion = std::clamp<std::int64_t>(
              pool / (8 * static_cast<std::int64_t>(workers_.size())), 1, 256);
          fuel_moving_.fetch_add(1);
          if (fuel_pool_.compare_exchange_weak(pool, pool - portion)) w.fuel.fetch_add(portion);
          fuel_moving_.fetch_sub(1);
          continue;
        }
        // The pool is empty and stays so: what is left is in the workers' portions, or on its
        // way there.
        if (fuel_moving_.load() != 0) {
          std::this_thread::yield();
          continue;
        }
        for (const auto& other : workers_) {
          std::int64_t theirs = other->budget.fuel.load(std::memory_order_relaxed);
          while (theirs > 0) {
            if (other->budget.fuel.compare_exchange_weak(theirs, theirs - 1,
                                                         std::memory_order_relaxed))
              return true;
          }
        }
        return false;
      }
    }
  }

  std::int64_t fuel_left() const {
    std::int64_t left = fuel_pool_;
    for (const auto& w : workers_)
      left += w->budget.fuel.load(std::memory_order_relaxed);
    return left;
  }

  // The fuel used: Call firings and the calls of Rd nodes' evaluations.
  std::uint64_t calls_made() const {
    return fuel_ - static_cast<std::uint64_t>(std::max<std::int64_t>(0, fuel_left()));
  }

  // Takes n units of fuel for the calls an Rd node's evaluation made (they were charged
  // against a copy of the remaining budget, so there is enough).
  void spend_fuel(std::int64_t n) {
    if constexpr (!Threaded) {
      fuel_pool_ -= n;
    } else {
      fuel_moving_.fetch_add(1);
      for (const auto& w : workers_) {
        if (n == 0) break;
        std::int64_t theirs = w->budget.fuel.exchange(0);
        std::int64_t used = std::min(theirs, n);
        n -= used;
        fuel_pool_.fetch_add(theirs - used);
      }
      fuel_pool_.fetch_sub(n);
      fuel_moving_.fetch_sub(1);
    }
  }

 private:
  const std::vector<std::unique_ptr<W>>& workers_;
  const std::int64_t max_frames_;  // GraphOptions::max_frames (at most 2^63 - 1)
  const std::uint64_t fuel_;
  alignas(64) Shared<std::int64_t> fuel_pool_{0};
  std::atomic<int> fuel_moving_{0};  // threaded: fuel taken from one place, not yet in another
  alignas(64) Shared<std::int64_t> live_frames_{0};
  Shared<std::int64_t> peak_frames_{0};
};

}  // namespace adlang::graph
