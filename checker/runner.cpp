#include "checker/runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "checker/shrink.hpp"
#include "checker/term_edit.hpp"
#include "support/resource_budget.hpp"
#include "support/stack.hpp"
#include "support/threads.hpp"

namespace adlang::checker {

std::uint64_t case_seed(std::uint64_t seed, std::uint64_t index) {
  return seed * 0x9e3779b97f4a7c15ULL + index * 0xd1b54a32d192ed03ULL + 1;
}

namespace {

// One property's programs (this shard's), run by `jobs` threads. Each thread takes the next
// program's position; the verdicts are kept by position and counted afterwards in order, so
// the summary and the first failure are those one thread gives, whatever the threads' timing.
class PropertyRun {
 public:
  PropertyRun(const PropertyInfo& p, const RunOptions& options, const CheckConfig& config,
              std::uint64_t in_shard, const ProgressFn& progress)
      : p_(p),
        options_(options),
        config_(config),
        gen_(generator_config(p, options.max_size)),
        in_shard_(in_shard),
        progress_(progress),
        verdicts_(in_shard, Verdict::Pass),
        start_(std::chrono::steady_clock::now()) {
    live_.name = p.name;
  }

  // Runs the programs; rethrows the first exception a program's run threw (the time budget).
  void run(unsigned jobs) {
    jobs = std::max(1u, std::min<unsigned>(jobs, unsigned(std::min<std::uint64_t>(in_shard_, 64))));
    if (jobs == 1 || !kThreadsAvailable) {
      work();
    } else {
      std::vector<std::thread> threads;
      threads.reserve(jobs - 1);
      for (unsigned t = 1; t < jobs; ++t)
        threads.emplace_back([this] { run_on_large_stack([this] { work(); }); });
      work();
      for (std::thread& t : threads)
        t.join();
    }
    if (error_) std::rethrow_exception(error_);
  }

  // The program number of position k.
  std::uint64_t index(std::uint64_t k) const {
    return options_.shard_index + k * options_.shard_count;
  }

  // The counts in position order, up to and including the first failure when the run stops
  // there; `first_failure` is that program's number.
  PropertySummary summary() const {
    PropertySummary sum;
    sum.name = p_.name;
    const std::uint64_t end = std::min(in_shard_, stop_after_.load() + 1);
    for (std::uint64_t k = 0; k < end; ++k) {
      ++sum.tried;
      switch (verdicts_[k]) {
        case Verdict::Pass:
          ++sum.passed;
          break;
        case Verdict::BothUndefined:
          ++sum.both_undefined;
          break;
        case Verdict::Discard:
          ++sum.discarded;
          break;
        case Verdict::Fail:
          ++sum.failed;
          if (!sum.first_failure) sum.first_failure = index(k);
          break;
      }
    }
    sum.seconds = seconds();
    return sum;
  }

  const GenConfig& gen() const { return gen_; }

 private:
  const PropertyInfo& p_;
  const RunOptions& options_;
  const CheckConfig& config_;
  const GenConfig gen_;
  const std::uint64_t in_shard_;
  const ProgressFn& progress_;
  std::vector<Verdict> verdicts_;  // by position; each written by the one thread that ran it
  const std::chrono::steady_clock::time_point start_;
  std::atomic<std::uint64_t> next_{0};
  // With stop_after_first_failure: the first failing position found so far (positions after
  // it are not started); otherwise never lowered.
  std::atomic<std::uint64_t> stop_after_{std::numeric_limits<std::uint64_t>::max() - 1};
  std::atomic<bool> abort_{false};
  std::mutex mutex_;      // guards live_ and error_, and serialises progress_
  PropertySummary live_;  // the counts so far, in completion order (the progress line)
  std::exception_ptr error_;

  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  void work() {
    for (;;) {
      if (abort_.load(std::memory_order_relaxed)) return;
      const std::uint64_t k = next_.fetch_add(1);
      if (k >= in_shard_ || k > stop_after_.load()) return;
      const std::uint64_t i = index(k);
      try {
        check_resources();  // the time budget (adlang check --timeout) ends the run here
        Program program = generate_program(options_.seed, i, gen_);
        const Verdict v = run_property(p_, program, config_, case_seed(options_.seed, i)).verdict;
        verdicts_[k] = v;
        if (v == Verdict::Fail && options_.stop_after_first_failure) {
          std::uint64_t seen = stop_after_.load();
          while (k < seen && !stop_after_.compare_exchange_weak(seen, k)) {
          }
        }
        if (progress_) {
          std::lock_guard lock(mutex_);
          ++live_.tried;
          ++(v == Verdict::Pass            ? live_.passed
             : v == Verdict::BothUndefined ? live_.both_undefined
             : v == Verdict::Discard       ? live_.discarded
                                           : live_.failed);
          live_.seconds = seconds();
          progress_(live_, in_shard_);  // may throw (the playground's Stop)
        }
      } catch (...) {
        std::lock_guard lock(mutex_);
        if (!error_) error_ = std::current_exception();
        abort_.store(true);
        return;
      }
    }
  }
};

RunReport run_all(const RunOptions& options, const CheckConfig& config,
                  const ProgressFn& progress) {
  std::vector<const PropertyInfo*> selected;
  for (const std::string& name : options.properties) {
    const PropertyInfo* found = find_property(name);
    if (!found) throw std::invalid_argument("unknown property '" + name + "'");
    selected.push_back(found);
  }
  if (selected.empty())
    for (const PropertyInfo& p : all_properties())
      selected.push_back(&p);

  RunReport report;
  std::uint64_t in_shard = 0;
  for (std::uint64_t i = options.shard_index; i < options.count; i += options.shard_count)
    ++in_shard;
  for (const PropertyInfo* p : selected) {
    PropertyRun run(*p, options, config, in_shard, progress);
    run.run(options.jobs);
    PropertySummary sum = run.summary();
    if (sum.first_failure) {
      const std::uint64_t i = *sum.first_failure;
      const std::uint64_t cs = case_seed(options.seed, i);
      Counterexample cx;
      cx.property = p->name;
      cx.seed = options.seed;
      cx.index = i;
      cx.original = generate_program(options.seed, i, run.gen());
      ShrinkStats st;
      cx.shrunk = shrink(
          cx.original,
          [&](const Program& q) {
            return run_property(*p, q, config, cs).verdict == Verdict::Fail;
          },
          options.max_shrink_candidates, &st);
      cx.shrink_steps = st.steps;
      cx.detail = run_property(*p, cx.shrunk, config, cs).detail;
      report.counterexamples.push_back(std::move(cx));
      sum.seconds = run.summary().seconds;
    }
    report.properties.push_back(sum);
  }
  return report;
}

}  // namespace

RunReport run_checks(const RunOptions& options, const CheckConfig& config,
                     const ProgressFn& progress) {
  RunReport report;
  run_on_large_stack([&] { report = run_all(options, config, progress); });
  return report;
}

}  // namespace adlang::checker
