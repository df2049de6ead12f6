#include "support/worker_pool.hpp"

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace adlang {

namespace {

// A thread of the pool. Made once and never destroyed: it parks between loans, and the process
// ends with it parked.
struct PooledThread {
  // A loan is given by storing its number in `loan` (then notify); the thread runs it and stores
  // the same number in `returned`. The lender writes `body`, `index` and `error` before its
  // store to `loan` and reads `error` after it has seen `returned`; the thread uses them between.
  std::atomic<std::uint32_t> loan{0};
  std::atomic<std::uint32_t> returned{0};
  const std::function<void(std::size_t)>* body = nullptr;
  std::size_t index = 0;
  std::exception_ptr error;

  void serve() {
    std::uint32_t seen = 0;
    for (;;) {
      loan.wait(seen, std::memory_order_acquire);
      seen = loan.load(std::memory_order_acquire);
      try {
        (*body)(index);
      } catch (...) {
        error = std::current_exception();
      }
      returned.store(seen, std::memory_order_release);
      returned.notify_one();
    }
  }
};

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

// `n` threads of the pool, parked ones first, then new ones.
std::vector<PooledThread*> borrow(std::size_t n) {
  std::vector<PooledThread*> lent;
  lent.reserve(n);
  {
    std::lock_guard lock(pool().mu);
    std::vector<PooledThread*>& parked = pool().parked;
    while (lent.size() < n && !parked.empty()) {
      lent.push_back(parked.back());
      parked.pop_back();
    }
  }
  while (lent.size() < n) {
    auto* t = new PooledThread;
    std::thread([t] { t->serve(); }).detach();
    lent.push_back(t);
  }
  return lent;
}

void give_back(const std::vector<PooledThread*>& lent) {
  std::lock_guard lock(pool().mu);
  pool().parked.insert(pool().parked.end(), lent.begin(), lent.end());
}

}  // namespace

void run_on_pool(std::size_t n, const std::function<void(std::size_t)>& body) {
  if (n <= 1) {
    body(0);
    return;
  }
  const std::vector<PooledThread*> lent = borrow(n - 1);
  std::vector<std::uint32_t> loans(lent.size());
  for (std::size_t i = 0; i < lent.size(); ++i) {
    PooledThread& t = *lent[i];
    t.body = &body;
    t.index = i + 1;
    t.error = nullptr;
    loans[i] = t.loan.load(std::memory_order_relaxed) + 1;
    t.loan.store(loans[i], std::memory_order_release);
    t.loan.notify_one();
  }
  std::exception_ptr error;
  try {
    body(0);
  } catch (...) {
    error = std::current_exception();
  }
  for (std::size_t i = 0; i < lent.size(); ++i) {
    PooledThread& t = *lent[i];
    for (std::uint32_t r = t.returned.load(std::memory_order_acquire); r != loans[i];
         r = t.returned.load(std::memory_order_acquire))
      t.returned.wait(r, std::memory_order_acquire);
    if (!error && t.error) error = t.error;
    t.error = nullptr;
  }
  give_back(lent);
  if (error) std::rethrow_exception(error);
}

}  // namespace adlang
