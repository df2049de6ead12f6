// Threads kept for the process's life and lent to whoever runs work on several threads at once:
// the graph executor's workers (semantics/graph/executor.cpp). Starting a thread and joining it
// cost about 180 µs on the 2-core development machine, more than the whole run of most of the
// checker's graphs, and the kernel serialises the starts of one process's threads, so threads
// made per run kept `adlang check --jobs 2` from going faster than one job (docs/performance.md
// Sec. 7). A thread lent is parked on a futex between loans, and never exits; a caller that
// finds too few parked threads starts new ones, so loans nest and run side by side (the
// checker's --jobs threads each lend their own), and the pool holds as many threads as were
// ever lent at once. A process forked after lending starts with an empty pool (the threads are
// not copied).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace adlang {

namespace detail {
struct PooledThread;  // worker_pool.cpp
}

// Loans of the pool's threads, each running body(index), made one at a time while the lender
// works and ended together. The graph executor's worker 0 lends a thread to the next worker
// only when it holds work another could take (semantics/graph/work_stealing.hpp). Used from
// the lender's thread only.
class PoolLoans {
 public:
  explicit PoolLoans(const std::function<void(std::size_t)>& body) : body_(body) {}
  PoolLoans(const PoolLoans&) = delete;
  PoolLoans& operator=(const PoolLoans&) = delete;
  // Ends the loans still out as end(false) does, without rethrowing.
  ~PoolLoans();

  // Runs body(index) on a thread of the pool (parked, or new), from now.
  void lend(std::size_t index);

  // Waits until every lent body has returned and gives the threads back to the pool; with
  // `take_back_unstarted`, a loan whose thread has not yet begun the body is taken back
  // instead, and that body never runs. Rethrows the first exception a body threw (in the order
  // of the loans).
  void end(bool take_back_unstarted);

 private:
  const std::function<void(std::size_t)>& body_;
  std::vector<detail::PooledThread*> lent_;
};

// Runs body(0) on the calling thread and body(1), ..., body(n - 1) each on a thread of the
// pool, all at once, and returns when every one has returned. The first exception thrown (in
// the order of the indices) is rethrown in the caller once all have returned.
void run_on_pool(std::size_t n, const std::function<void(std::size_t)>& body);

}  // namespace adlang
