#include "checker/runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
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

// A shard's positions are checked a chunk at a time: a thread takes the next chunk and checks
// every property on it. Properties whose generators agree check the same programs (a program is
// a function of the seed, its number and the generator's configuration), so each program is
// generated once a chunk and shared, not once a property (generation was 12% of the default
// set's instructions, and its 18 properties have 7 configurations). A chunk is small, so that
// its programs stay in the cache while every property reads them; and the threads wait for each
// other only at the end of the run, not at the end of every property.
constexpr std::uint64_t kChunk = 64;

// The programs of one chunk of positions, by generator configuration, each generated when a
// property first needs it. Used by one thread.
class ProgramChunk {
 public:
  void start(std::uint64_t begin, std::uint64_t end) {
    begin_ = begin;
    size_ = end - begin;
    by_config_.clear();
  }
  std::uint64_t begin() const { return begin_; }
  std::uint64_t end() const { return begin_ + size_; }

  // The chunk's slots for the programs of `gen`.
  std::vector<std::optional<Program>>& of(const GenConfig& gen) {
    for (auto& [config, programs] : by_config_)
      if (config == gen) return programs;
    by_config_.emplace_back(gen, std::vector<std::optional<Program>>(size_));
    return by_config_.back().second;
  }

 private:
  std::uint64_t begin_ = 0, size_ = 0;
  std::vector<std::pair<GenConfig, std::vector<std::optional<Program>>>> by_config_;
};

// One property's programs (this shard's). Each chunk's counts are added to the summary in
// position order (ChunkMerger), so the summary and the first failure are those one thread
// gives, whatever the threads' timing; nothing is kept per program, so a run of any length
// takes the same memory.
class PropertyRun {
 public:
  PropertyRun(const PropertyInfo& p, const RunOptions& options, const CheckConfig& config,
              std::uint64_t in_shard, const ProgressFn& progress, std::mutex& progress_mutex)
      : p_(p),
        options_(options),
        config_(config),
        gen_(generator_config(p, options.max_size)),
        in_shard_(in_shard),
        progress_(progress),
        progress_mutex_(progress_mutex) {
    live_.name = p.name;
    summary_.name = p.name;
  }

  // Checks the property on the programs of `chunk`, in order (on the calling thread): the
  // counts of the chunk, up to and including its first failure when the run stops there.
  PropertySummary check(ProgramChunk& chunk) {
    const auto started = std::chrono::steady_clock::now();
    PropertySummary tally;
    std::vector<std::optional<Program>>& programs = chunk.of(gen_);
    for (std::uint64_t k = chunk.begin(); k < chunk.end() && k <= stop_after_.load(); ++k) {
      const std::uint64_t i = index(k);
      check_resources();  // the time budget (adlang check --timeout) ends the run here
      std::optional<Program>& program = programs[k - chunk.begin()];
      if (!program) program = generate_program(options_.seed, i, gen_);
      const Verdict v = run_property(p_, *program, config_, case_seed(options_.seed, i)).verdict;
      ++tally.tried;
      ++count_of(tally, v);
      if (v == Verdict::Fail && !tally.first_failure) tally.first_failure = i;
      if (v == Verdict::Fail && options_.stop_after_first_failure) {
        std::uint64_t seen = stop_after_.load();
        while (k < seen && !stop_after_.compare_exchange_weak(seen, k)) {
        }
      }
      if (progress_) {
        std::lock_guard lock(progress_mutex_);
        ++live_.tried;
        ++count_of(live_, v);
        live_.seconds = seconds() + since(started);
        progress_(live_, in_shard_);  // may throw (the playground's Stop)
      }
      if (v == Verdict::Fail && options_.stop_after_first_failure) break;
    }
    nanoseconds_.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::steady_clock::now() - started)
                               .count(),
                           std::memory_order_relaxed);
    return tally;
  }

  // Adds the counts of the next chunk in position order. When the run stops at its first
  // failure, the chunks after the one that holds it are not counted.
  void add(const PropertySummary& t) {
    if (stopped_) return;
    summary_.tried += t.tried;
    summary_.passed += t.passed;
    summary_.failed += t.failed;
    summary_.both_undefined += t.both_undefined;
    summary_.discarded += t.discarded;
    if (t.first_failure && !summary_.first_failure) {
      summary_.first_failure = t.first_failure;
      stopped_ = options_.stop_after_first_failure;
    }
  }

  // The counts of every chunk added. `threads`: how many ran the run.
  PropertySummary summary(unsigned threads) const {
    PropertySummary sum = summary_;
    // The threads' time on this property, shared out among them: its wall time when the
    // threads' work is spread evenly over the run.
    sum.seconds = seconds() / std::max(1u, threads);
    return sum;
  }

  // The program number of position k.
  std::uint64_t index(std::uint64_t k) const {
    return options_.shard_index + k * options_.shard_count;
  }

  const GenConfig& gen() const { return gen_; }

 private:
  const PropertyInfo& p_;
  const RunOptions& options_;
  const CheckConfig& config_;
  const GenConfig gen_;
  const std::uint64_t in_shard_;
  const ProgressFn& progress_;
  std::mutex& progress_mutex_;  // serialises progress_ and guards live_
  // With stop_after_first_failure: the first failing position found so far (positions after
  // it are not started); otherwise never lowered.
  std::atomic<std::uint64_t> stop_after_{std::numeric_limits<std::uint64_t>::max() - 1};
  std::atomic<std::int64_t> nanoseconds_{0};  // every thread's time on this property so far
  PropertySummary live_;                      // the counts so far, in completion order
  PropertySummary summary_;                   // the chunks added so far, in position order
  bool stopped_ = false;                      // a failure was added and the run stops there

  static std::uint64_t& count_of(PropertySummary& c, Verdict v) {
    return v == Verdict::Pass            ? c.passed
           : v == Verdict::BothUndefined ? c.both_undefined
           : v == Verdict::Discard       ? c.discarded
                                         : c.failed;
  }
  double seconds() const { return 1e-9 * double(nanoseconds_.load(std::memory_order_relaxed)); }
  static double since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }
};

// Adds the chunks' tallies to the properties' summaries in chunk order, whatever order the
// threads finish them in. A chunk finished before the ones before it waits here; as threads
// take chunks in order, only the chunks taken while an earlier one is still running wait.
class ChunkMerger {
 public:
  explicit ChunkMerger(std::vector<std::unique_ptr<PropertyRun>>& runs) : runs_(runs) {}

  void finished(std::uint64_t chunk, std::vector<PropertySummary> tallies) {
    std::lock_guard lock(mutex_);
    waiting_.emplace(chunk, std::move(tallies));
    for (auto it = waiting_.begin(); it != waiting_.end() && it->first == next_;
         it = waiting_.erase(it), ++next_)
      for (std::size_t r = 0; r < runs_.size(); ++r)
        runs_[r]->add(it->second[r]);
  }

 private:
  std::vector<std::unique_ptr<PropertyRun>>& runs_;
  std::mutex mutex_;
  std::uint64_t next_ = 0;                                         // the next chunk to add
  std::map<std::uint64_t, std::vector<PropertySummary>> waiting_;  // finished, not yet added
};

// Every selected property on a shard's positions, by `jobs` threads, each taking the next
// chunk. Rethrows the first exception a program's check threw (the time budget) once the
// threads have stopped.
void run_chunks(std::vector<std::unique_ptr<PropertyRun>>& runs, std::uint64_t in_shard,
                unsigned jobs) {
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> abort{false};
  ChunkMerger merger(runs);
  std::mutex error_mutex;
  std::exception_ptr error;
  auto work = [&] {
    ProgramChunk chunk;
    for (;;) {
      if (abort.load(std::memory_order_relaxed)) return;
      const std::uint64_t begin = next.fetch_add(kChunk);
      if (begin >= in_shard) return;
      chunk.start(begin, std::min(in_shard, begin + kChunk));
      try {
        std::vector<PropertySummary> tallies;
        tallies.reserve(runs.size());
        for (auto& run : runs)
          tallies.push_back(run->check(chunk));
        merger.finished(begin / kChunk, std::move(tallies));
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        abort.store(true);
        return;
      }
    }
  };
  if (jobs == 1 || !kThreadsAvailable) {
    work();
  } else {
    std::vector<std::thread> threads;
    threads.reserve(jobs - 1);
    for (unsigned t = 1; t < jobs; ++t)
      threads.emplace_back([&work] { run_on_large_stack(work); });
    work();
    for (std::thread& t : threads)
      t.join();
  }
  if (error) std::rethrow_exception(error);
}

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
  // The positions of this shard: the program numbers i < count with i mod shard_count =
  // shard_index.
  const std::uint64_t in_shard =
      options.count > options.shard_index
          ? (options.count - options.shard_index - 1) / options.shard_count + 1
          : 0;
  std::mutex progress_mutex;
  std::vector<std::unique_ptr<PropertyRun>> runs;
  for (const PropertyInfo* p : selected)
    runs.push_back(
        std::make_unique<PropertyRun>(*p, options, config, in_shard, progress, progress_mutex));
  const unsigned jobs =
      std::max(1u, std::min<unsigned>(options.jobs, unsigned(std::min<std::uint64_t>(
                                                        (in_shard + kChunk - 1) / kChunk, 64))));
  run_chunks(runs, in_shard, jobs);
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const PropertyInfo* p = selected[r];
    PropertyRun& run = *runs[r];
    PropertySummary sum = run.summary(jobs);
    if (sum.first_failure) {
      const std::uint64_t i = *sum.first_failure;
      const std::uint64_t cs = case_seed(options.seed, i);
      Counterexample cx;
      cx.property = p->name;
      cx.seed = options.seed;
      cx.index = i;
      const auto shrinking = std::chrono::steady_clock::now();
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
      sum.seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - shrinking).count();
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
