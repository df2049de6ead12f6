// The resource budget's watchdog (support/resource_budget.hpp, docs/robustness.md "How the
// budgets are enforced"): started by a poll one tick after the budget, not by the budget itself,
// and started again in a forked child. Each test runs in a process of its own (EXPECT_EXIT), since
// the budget is one object per process.
#include "support/resource_budget.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

namespace adlang {
namespace {

using namespace std::chrono_literals;

// Polls until the watchdog runs (at most 10 s): the polls of one tick and more.
bool poll_until_watchdog_runs() {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < deadline) {
    check_resources();
    if (resource_watchdog_running()) return true;
    std::this_thread::sleep_for(100us);
  }
  return false;
}

// Touches memory a MiB at a time, polling after each, until a budget is reported (exit 0) or
// 1 GiB has been touched (exit 1).
[[noreturn]] void grow_until_the_budget_is_reported() {
  std::vector<std::unique_ptr<char[]>> blocks;
  try {
    for (int i = 0; i < 1024; ++i) {
      blocks.emplace_back(new char[1 << 20]);
      std::memset(blocks.back().get(), 1, 1 << 20);
      std::this_thread::sleep_for(200us);
      check_resources();
    }
  } catch (const BudgetExceeded& e) {
    _exit(e.kind() == BudgetKind::Memory ? 0 : 2);
  }
  _exit(1);
}

TEST(ResourceBudget, TheWatchdogStartsAtAPollNotWithTheBudget) {
  EXPECT_EXIT(
      {
        start_resource_budget({default_memory_budget(), 0});
        const bool at_start = resource_watchdog_running();
        std::exit(!at_start && poll_until_watchdog_runs() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(ResourceBudget, AForkedChildStartsItsOwnWatchdog) {
  EXPECT_EXIT(
      {
        start_resource_budget({resident_memory_bytes() + (std::uint64_t(96) << 20), 0});
        if (!poll_until_watchdog_runs()) std::exit(3);
        const pid_t child = fork();
        if (child == 0) grow_until_the_budget_is_reported();
        int status = 0;
        waitpid(child, &status, 0);
        std::exit(WIFEXITED(status) ? WEXITSTATUS(status) : 4);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace adlang
