// The pool of worker threads the graph executor's workers run on (support/worker_pool.hpp).
#include "support/worker_pool.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace adlang {
namespace {

// How many bodies this thread has run (a new thread starts at 0).
thread_local int bodies_run = 0;

// The threads that ran body(1), ..., body(n - 1), after checking that every index ran once, the
// first on the caller, and all of them at once (each waits, for at most 10 s, until all have
// started). `ran_before`: how many of those threads had run a body earlier.
std::set<std::thread::id> lent_threads(std::size_t n, std::size_t* ran_before = nullptr) {
  std::vector<std::thread::id> ran(n);
  std::vector<int> times(n, 0), earlier(n, 0);
  std::atomic<std::size_t> started{0};
  std::atomic<bool> all_at_once{true};
  run_on_pool(n, [&](std::size_t i) {
    ran[i] = std::this_thread::get_id();
    earlier[i] = bodies_run++;
    ++times[i];
    started.fetch_add(1);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < n) {
      if (std::chrono::steady_clock::now() > give_up) {
        all_at_once = false;
        return;
      }
      std::this_thread::yield();
    }
  });
  EXPECT_TRUE(all_at_once.load());
  EXPECT_EQ(times, std::vector<int>(n, 1));
  EXPECT_EQ(ran[0], std::this_thread::get_id());
  std::set<std::thread::id> lent(ran.begin() + 1, ran.end());
  EXPECT_EQ(lent.size(), n - 1);
  EXPECT_EQ(lent.count(std::this_thread::get_id()), 0u);
  if (ran_before != nullptr)
    *ran_before =
        std::size_t(std::count_if(earlier.begin() + 1, earlier.end(), [](int k) { return k > 0; }));
  return lent;
}

TEST(WorkerPool, RunsEveryIndexOnceAllAtOnceOnThreadsKeptForTheNextRun) {
  const std::set<std::thread::id> first = lent_threads(4);
  // The same threads again, not new ones: they are parked between runs.
  std::size_t ran_before = 0;
  EXPECT_EQ(lent_threads(4, &ran_before), first);
  EXPECT_EQ(ran_before, 3u);
  // A smaller run takes some of them; a larger one starts what is missing.
  const std::set<std::thread::id> two = lent_threads(2);
  EXPECT_EQ(first.count(*two.begin()), 1u);
  EXPECT_EQ(lent_threads(6).size(), 5u);
}

TEST(WorkerPool, OneIsTheCallerAlone) {
  std::thread::id ran;
  run_on_pool(1, [&](std::size_t i) {
    EXPECT_EQ(i, 0u);
    ran = std::this_thread::get_id();
  });
  EXPECT_EQ(ran, std::this_thread::get_id());
}

TEST(WorkerPool, RethrowsTheFirstExceptionOnceAllHaveReturned) {
  std::atomic<int> returned{0};
  try {
    run_on_pool(4, [&](std::size_t i) {
      if (i >= 2) {
        // Let the others finish first, so that returning early would be seen.
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        ++returned;
        throw std::runtime_error("body " + std::to_string(i));
      }
      ++returned;
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "body 2");
  }
  EXPECT_EQ(returned.load(), 4);
  // The threads are usable afterwards.
  EXPECT_EQ(lent_threads(4).size(), 3u);
}

TEST(WorkerPool, LoansNestAndRunSideBySide) {
  std::mutex mu;
  std::vector<int> counts(3, 0);
  auto outer = [&](std::size_t) {
    run_on_pool(3, [&](std::size_t j) {
      std::lock_guard<std::mutex> l(mu);
      ++counts[j];
    });
  };
  std::thread other([&] { run_on_pool(2, outer); });
  run_on_pool(3, outer);
  other.join();
  EXPECT_EQ(counts, std::vector<int>(3, 5));
}

// Loans made one at a time run side by side with the lender, on threads of the pool; ending
// them waits for every body, or takes back those not begun (which then never run).
TEST(WorkerPool, LoansMadeOneAtATimeEndTogether) {
  std::atomic<int> ran{0};
  std::atomic<bool> go{false};
  std::vector<std::thread::id> ids(4);
  const std::function<void(std::size_t)> body = [&](std::size_t i) {
    ids[i] = std::this_thread::get_id();
    while (!go.load())
      std::this_thread::yield();
    ++ran;
  };
  {
    PoolLoans loans(body);
    loans.lend(1);
    loans.lend(2);
    loans.lend(3);
    go = true;  // the bodies wait for this: the loans run while the lender goes on
    loans.end(false);
  }
  EXPECT_EQ(ran.load(), 3);
  EXPECT_EQ(std::set<std::thread::id>(ids.begin() + 1, ids.end()).size(), 3u);
  EXPECT_EQ(std::count(ids.begin() + 1, ids.end(), std::this_thread::get_id()), 0);

  // Taken back: a body either ran to its end before end() returned, or never runs.
  for (int round = 0; round < 200; ++round) {
    std::atomic<int> begun{0}, finished{0};
    const std::function<void(std::size_t)> count = [&](std::size_t) {
      ++begun;
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      ++finished;
    };
    PoolLoans loans(count);
    loans.lend(1);
    loans.lend(2);
    loans.end(true);
    const int b = begun.load();
    EXPECT_EQ(finished.load(), b);
    EXPECT_LE(b, 2);
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    EXPECT_EQ(begun.load(), b);  // a body taken back does not start later
  }
  // The threads are usable afterwards.
  EXPECT_EQ(lent_threads(4).size(), 3u);
}

TEST(WorkerPool, AnExceptionOfALoanIsRethrownByEnd) {
  const std::function<void(std::size_t)> body = [](std::size_t i) {
    throw std::runtime_error("loan " + std::to_string(i));
  };
  PoolLoans loans(body);
  loans.lend(1);
  loans.lend(2);
  try {
    loans.end(false);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "loan 1");
  }
  EXPECT_EQ(lent_threads(3).size(), 2u);
}

TEST(WorkerPool, AForkedChildStartsThreadsOfItsOwn) {
  EXPECT_EXIT(
      {
        EXPECT_EQ(lent_threads(3).size(), 2u);  // the pool now holds parked threads
        const pid_t child = fork();
        if (child == 0) {
          alarm(10);  // a loan to a thread the fork did not copy would wait for ever
          _exit(lent_threads(3).size() == 2u ? 0 : 1);
        }
        int status = 0;
        waitpid(child, &status, 0);
        std::exit(WIFEXITED(status) ? WEXITSTATUS(status) : 2);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace adlang
