#include "checker/runner.hpp"

#include <stdexcept>

#include "checker/shrink.hpp"
#include "checker/term_edit.hpp"
#include "support/resource_budget.hpp"
#include "support/stack.hpp"

namespace adlang::checker {

std::uint64_t case_seed(std::uint64_t seed, std::uint64_t index) {
  return seed * 0x9e3779b97f4a7c15ULL + index * 0xd1b54a32d192ed03ULL + 1;
}

namespace {

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
    PropertySummary sum;
    sum.name = p->name;
    GenConfig gen = generator_config(*p, options.max_size);
    auto start = std::chrono::steady_clock::now();
    for (std::uint64_t i = options.shard_index; i < options.count; i += options.shard_count) {
      check_resources();  // the time budget (adlang check --timeout) ends the run here
      Program program = generate_program(options.seed, i, gen);
      std::uint64_t cs = case_seed(options.seed, i);
      Outcome o = run_property(*p, program, config, cs);
      ++sum.tried;
      switch (o.verdict) {
        case Verdict::Pass:
          ++sum.passed;
          break;
        case Verdict::BothUndefined:
          ++sum.both_undefined;
          break;
        case Verdict::Discard:
          ++sum.discarded;
          break;
        case Verdict::Fail: {
          ++sum.failed;
          if (!sum.first_failure) {
            sum.first_failure = i;
            Counterexample cx;
            cx.property = p->name;
            cx.seed = options.seed;
            cx.index = i;
            cx.original = program;
            ShrinkStats st;
            cx.shrunk = shrink(
                program,
                [&](const Program& q) {
                  return run_property(*p, q, config, cs).verdict == Verdict::Fail;
                },
                options.max_shrink_candidates, &st);
            cx.shrink_steps = st.steps;
            cx.detail = run_property(*p, cx.shrunk, config, cs).detail;
            report.counterexamples.push_back(std::move(cx));
          }
          break;
        }
      }
      if (progress) {
        sum.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        progress(sum, in_shard);
      }
      if (options.stop_after_first_failure && sum.failed > 0) break;
    }
    sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
