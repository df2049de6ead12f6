#include "support/worker_pool.hpp"

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace adlang {

namespace detail {

// A thread of the pool. Made once and never destroyed: it parks between loans, and the process
// ends with it parked.
struct PooledThread {
  // A loan: the lender writes `body`, `index` and `error`, then stores kOffered (and notifies).
  // The thread claims it (kOffered -> kRunning), runs it and stores kDone; the lender reads
  // `error` after it has seen kDone and stores kParked. A lender may instead take back an offer
  // the thread has not claimed (kOffered -> kParked): the thread, if it wakes, finds nothing.
  static constexpr std::uint32_t kParked = 0, kOffered = 1, kRunning = 2, kDone = 3;
  std::atomic<std::uint32_t> state{kParked};
  const std::function<void(std::size_t)>* body = nullptr;
  std::size_t index = 0;
  std::exception_ptr error;

  void serve() {
    for (;;) {
      std::uint32_t s = state.load(std::memory_order_acquire);
      if (s != kOffered) {
        state.wait(s, std::memory_order_acquire);
        continue;
      }
      if (!state.compare_exchange_strong(s, kRunning, std::memory_order_acq_rel)) continue;
      try {
        (*body)(index);
      } catch (...) {
        error = std::current_exception();
      }
      state.store(kDone, std::memory_order_release);
      state.notify_all();
    }
  }
};

}  // namespace detail

namespace {

using detail::PooledThread;

struct Pool {
  std::mutex mu;
  std::vector<PooledThread*> parked;  // under mu
};

Pool& pool() {
  static Pool* p = [] {
    auto* made = new Pool;  // never destroyed: its threads outlive static destruction
#ifndef __EMSCRIPTEN__
    // fork() copies the parked list but not its threads: the child starts with an empty pool
    // (the objects are left, as a lent thread's would be). The lock is held across the fork, so
    // that the child's copy of the list is whole.
    pthread_atfork([] { pool().mu.lock(); }, [] { pool().mu.unlock(); },
                   [] {
                     pool().mu.unlock();
                     pool().parked.clear();
                   });
#endif
    return made;
  }();
  return *p;
}

// A thread of the pool: a parked one, or a new one.
PooledThread* borrow() {
  {
    std::lock_guard lock(pool().mu);
    std::vector<PooledThread*>& parked = pool().parked;
    if (!parked.empty()) {
      PooledThread* t = parked.back();
      parked.pop_back();
      return t;
    }
  }
  auto* t = new PooledThread;
  std::thread([t] { t->serve(); }).detach();
  return t;
}

void give_back(const std::vector<PooledThread*>& lent) {
  std::lock_guard lock(pool().mu);
  pool().parked.insert(pool().parked.end(), lent.begin(), lent.end());
}

}  // namespace

PoolLoans::~PoolLoans() {
  try {
    end(false);
  } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor ends the loans without rethrowing
  }
}

void PoolLoans::lend(std::size_t index) {
  PooledThread* t = borrow();
  lent_.push_back(t);
  t->body = &body_;
  t->index = index;
  t->error = nullptr;
  t->state.store(PooledThread::kOffered, std::memory_order_release);
  t->state.notify_one();
}

void PoolLoans::end(bool take_back_unstarted) {
  std::exception_ptr error;
  for (PooledThread* t : lent_) {
    std::uint32_t s = PooledThread::kOffered;
    if (take_back_unstarted &&
        t->state.compare_exchange_strong(s, PooledThread::kParked, std::memory_order_acq_rel))
      continue;
    for (s = t->state.load(std::memory_order_acquire); s != PooledThread::kDone;
         s = t->state.load(std::memory_order_acquire))
      t->state.wait(s, std::memory_order_acquire);
    if (!error && t->error) error = t->error;
    t->error = nullptr;
    t->state.store(PooledThread::kParked, std::memory_order_relaxed);
  }
  give_back(lent_);
  lent_.clear();
  if (error) std::rethrow_exception(error);
}

void run_on_pool(std::size_t n, const std::function<void(std::size_t)>& body) {
  PoolLoans loans(body);
  for (std::size_t i = 1; i < n; ++i)
    loans.lend(i);
  std::exception_ptr error;
  try {
    body(0);
  } catch (...) {
    error = std::current_exception();
  }
  loans.end(false);  // rethrows a lent body's exception only if body(0) threw none
  if (error) std::rethrow_exception(error);
}

}  // namespace adlang
