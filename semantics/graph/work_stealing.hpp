// Work stealing among the graph executor's workers (docs/graph.md, "With --threads N the
// stacks stay private"): work items, a worker's private work list, and the requests by which an
// idle worker is handed another's oldest item (private deques: Acar, Charguéraud and Rainey,
// PPoPP 2013). Used by executor.cpp only.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "semantics/graph/frame.hpp"
#include "semantics/graph/frame_memory.hpp"

namespace adlang::graph {

// A work item packs a frame (16-byte aligned, below 2^48) and a block of its body in 64 bits.
inline std::uint64_t work_item(Frame* f, std::uint32_t block) {
  auto p = reinterpret_cast<std::uintptr_t>(f);
  return (static_cast<std::uint64_t>(p) >> 4) | (static_cast<std::uint64_t>(block) << 44);
}
inline Frame* item_frame(std::uint64_t x) {
  return reinterpret_cast<Frame*>(
      static_cast<std::uintptr_t>((x & ((std::uint64_t(1) << 44) - 1)) << 4));
}
inline std::uint32_t item_block(std::uint64_t x) {
  return static_cast<std::uint32_t>(x >> 44);
}

inline constexpr std::uint32_t kNoRequest = UINT32_MAX;
inline constexpr std::uint64_t kWaiting = UINT64_MAX;

// A worker's work list, private to it: LIFO at the back; with several threads, an idle worker
// is given the oldest item (at `base`) when it asks (WorkStealing::run).
struct WorkList {
  std::vector<std::uint64_t, CacheLineAllocator<std::uint64_t>> stack;
  std::size_t base = 0;
  std::uint64_t next = 0;  // the item to run after this one

  // The item is this worker's next if it has none (so a worker follows one callee down before
  // its siblings), else it goes on the worker's stack.
  void enqueue(std::uint64_t x) {
    if (next == 0) {
      next = x;
    } else {
      stack.push_back(x);
    }
  }

  // The worker's newest item, or 0.
  std::uint64_t take() {
    std::uint64_t x = next;
    next = 0;
    if (x != 0) return x;
    if (stack.size() == base) {
      stack.clear();
      base = 0;
      return 0;
    }
    x = stack.back();
    stack.pop_back();
    return x;
  }
};

// The cells by which workers ask each other for work: the index of a worker asking this one
// (kNoRequest if none), and the answer to this worker's own request (kWaiting until it comes;
// 0: none). Each in a cache line of its own.
struct StealCells {
  alignas(64) std::atomic<std::uint32_t> request{kNoRequest};
  alignas(64) std::atomic<std::uint64_t> transfer{0};
};

// Work stealing among workers of type W (each a WorkList `list` and StealCells `cells`).
template <class W>
class WorkStealing {
 public:
  WorkStealing(std::vector<std::unique_ptr<W>>& workers, std::atomic<bool>& done)
      : workers_(workers), done_(done) {}

  // A worker runs its own items depth first (`run(w, item)`). Work is shared by request: a
  // worker without items asks another by writing its index into that worker's request cell,
  // and the owner, which looks at its cell between items, hands over its oldest item (in a
  // recursion, the largest piece of work) or nothing; `share(item)` is told of an item before
  // it is handed over. Owners thus keep their items without atomic operations or fences.
  // Worker 0, the thread that runs the graph, starts alone; it brings in the next worker,
  // `recruit(k)` (which must start worker k's run), when it is about to run an item while it
  // holds another that worker k could take, until all take part: a run with nothing to hand
  // over stays on one thread (as TensorFlow's executor runs a node's one ready successor inline
  // and hands only the others to its thread pool). The run ends when `done` is set (the main
  // frame has nothing left), or, as a safety net that turns a counting error into an internal
  // error instead of a hang, when every worker taking part is idle (a worker waiting for an
  // answer is not idle, nor is one brought in that has not yet begun, so no item can be in
  // flight then).
  template <class Run, class Share, class Recruit>
  void run(std::size_t me, Run run, Share share, Recruit recruit) {
    W& w = *workers_[me];
    const std::size_t all = workers_.size();
    std::size_t victim = me;
    unsigned misses = 0;
    bool idle = false;
    for (;;) {
      answer(w, share);
      std::uint64_t x = w.list.take();
      if (x != 0) {
        if (me == 0 && w.list.stack.size() > w.list.base) {
          const unsigned k = active_.load(std::memory_order_relaxed);  // written by worker 0 only
          if (k < all) {
            active_.store(k + 1);
            recruit(k);
          }
        }
        run(w, x);
        continue;
      }
      if (done_.load(std::memory_order_acquire)) break;
      const std::size_t n = active_.load();
      if (n > 1) {
        victim = (victim + 1) % n == me ? (victim + 2) % n : (victim + 1) % n;
        if (idle) idle_.fetch_sub(1);
        idle = false;
        x = ask(w, me, *workers_[victim], share);
        if (x != 0) {
          misses = 0;
          run(w, x);
          continue;
        }
      }
      if (!idle) idle_.fetch_add(1);
      idle = true;
      // (idle_ read before active_: active_ only grows, so that all taking part were idle.)
      const unsigned idle_now = idle_.load();
      if (idle_now == active_.load()) {
        finish();
        break;
      }
      if (++misses < 64) continue;
      if (misses < 256) {
        std::this_thread::yield();
      } else {
        sleep();
      }
    }
    if (idle) idle_.fetch_sub(1);
    answer(w, share);
  }

  // How many workers took part in the run (brought in by worker 0, or worker 0 alone).
  unsigned taking_part() const { return active_.load(); }

  // Ends the run: sets `done` and wakes the workers sleeping for want of work, so that the run
  // ends when its last item does, not when the last sleep does (a sleep of 50 µs took 140 µs
  // to several ms on the 2-core development machine, docs/performance.md Sec. 7).
  void finish() {
    done_.store(true);
    if (sleepers_.load() != 0) {
      std::lock_guard<std::mutex> l(sleep_mu_);
      sleep_cv_.notify_all();
    }
  }

 private:
  // Waits 50 µs, or less if the run ends. (`sleepers_` is raised before `done_` is read and
  // `done_` set before `sleepers_` is read, both sequentially consistent: either the sleeper
  // sees the end or finish() sees the sleeper, and then notifies under the lock it waits in.)
  void sleep() {
    std::unique_lock<std::mutex> l(sleep_mu_);
    sleepers_.fetch_add(1);
    if (!done_.load()) sleep_cv_.wait_for(l, std::chrono::microseconds(50));
    sleepers_.fetch_sub(1);
  }

  // Answers a request for work addressed to w: its oldest item, or nothing.
  template <class Share>
  void answer(W& w, Share share) {
    std::uint32_t thief = w.cells.request.load(std::memory_order_acquire);
    if (thief == kNoRequest) return;
    // The thief may have withdrawn its request (at the end of the run): then it gets nothing.
    if (!w.cells.request.compare_exchange_strong(thief, kNoRequest, std::memory_order_acq_rel))
      return;
    std::uint64_t x = 0;
    if (w.list.stack.size() > w.list.base) x = w.list.stack[w.list.base++];
    if (x != 0) share(x);
    workers_[thief]->cells.transfer.store(x, std::memory_order_release);
  }

  // Asks `victim` for work and waits for the answer (answering requests to w meanwhile, with
  // nothing: w has no items). Returns the item, or 0.
  template <class Share>
  std::uint64_t ask(W& w, std::size_t me, W& victim, Share share) {
    w.cells.transfer.store(kWaiting, std::memory_order_relaxed);
    std::uint32_t expected = kNoRequest;
    if (!victim.cells.request.compare_exchange_strong(expected, static_cast<std::uint32_t>(me),
                                                      std::memory_order_acq_rel)) {
      return 0;
    }
    for (unsigned spins = 0;; ++spins) {
      std::uint64_t x = w.cells.transfer.load(std::memory_order_acquire);
      if (x != kWaiting) return x;
      answer(w, share);
      if (spins < 256) continue;  // an answer takes about one block of the victim
      if (done_.load(std::memory_order_acquire)) {
        // The victim has stopped or will: take back the request if it is still there.
        expected = static_cast<std::uint32_t>(me);
        if (victim.cells.request.compare_exchange_strong(expected, kNoRequest)) return 0;
      }
      std::this_thread::yield();
    }
  }

  std::vector<std::unique_ptr<W>>& workers_;
  std::atomic<bool>& done_;
  std::atomic<unsigned> active_{1};  // the workers taking part: 0, ..., active_ - 1
  std::atomic<unsigned> idle_{0};
  std::atomic<unsigned> sleepers_{0};
  std::mutex sleep_mu_;
  std::condition_variable sleep_cv_;
};

}  // namespace adlang::graph
