// The conformance checker's throughput (docs/performance.md, "Conformance checker
// throughput"): `adlang conform` on the same random programs through the PyTorch adapter and
// the plain-Python adapter, in turns (one slice of each per round, so that both see the same
// load), each adapter process kept for the whole run as `adlang conform` keeps it. Prints, per
// system, programs per second, the share of wall time spent waiting for the adapter against
// adlang's own (export, reference evaluation, classification), adlang's own programs per second,
// and the ratio of the two systems' rates, all from one run.
//
//   conform_bench [--rounds R] [--count N] [--seed S]   (default 5 rounds of 100 programs)
//
// The adapters' start (the interpreter, torch's import) happens before the first round and is
// not counted: the figures are a long run's steady state.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "conform/conformance.hpp"
#include "median.hpp"
#include "support/stack.hpp"

namespace {

using adlang::bench::median;

struct System {
  std::string name;
  std::unique_ptr<adlang::conform::Adapter> adapter;
  std::vector<double> rate, adapter_share, own_rate;
  std::array<std::uint64_t, adlang::conform::kConformClassCount> counts{};
};

}  // namespace

int main(int argc, char** argv) {
  using namespace adlang::conform;
  int rounds = 5;
  std::uint64_t count = 100, seed = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--count" && i + 1 < argc) {
      count = std::max(1ull, std::strtoull(argv[++i], nullptr, 10));
    } else if (a == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: conform_bench [--rounds R] [--count N] [--seed S]\n");
      return 2;
    }
  }
  int status = 0;
  // Export, evaluation and shrinking recurse deeply, as in `adlang conform`.
  adlang::run_on_large_stack([&] {
    try {
      std::vector<System> systems;
      systems.reserve(2);
      for (const char* name : {"torch", "python"})
        systems.push_back(
            System{name, std::make_unique<Adapter>(adapter_command(name), 10), {}, {}, {}, {}});
      for (System& s : systems)
        s.adapter->start();  // the interpreter and torch, not counted
      for (int r = 0; r < rounds; ++r) {
        for (System& s : systems) {
          ConformOptions o;
          o.count = count;
          o.seed = seed + std::uint64_t(r);  // each round new programs, the same for both
          // The adapter's seconds are counted over its life: this round's are the difference.
          const double waited_before = s.adapter->adapter_seconds();
          const ConformReport report = run_conformance(*s.adapter, o, nullptr);
          const double waited = report.adapter_seconds - waited_before;
          const double own = report.seconds - waited;
          s.rate.push_back(double(report.programs) / report.seconds);
          s.adapter_share.push_back(waited / report.seconds);
          s.own_rate.push_back(double(report.programs) / own);
          for (std::size_t c = 0; c < kConformClassCount; ++c)
            s.counts[c] += report.counts[c];
          if (report.counts[std::size_t(ConformClass::Disagree)] > 0) {
            std::fprintf(stderr, "conform_bench: %s disagrees with the semantics at seed %llu\n",
                         s.name.c_str(), static_cast<unsigned long long>(o.seed));
            status = 1;
          }
        }
      }
      std::printf("conform: %d rounds of %llu programs per system, in turns (medians)\n", rounds,
                  static_cast<unsigned long long>(count));
      std::printf("%-8s %12s %9s %9s %18s %8s %8s\n", "system", "programs/s", "adapter", "adlang",
                  "adlang programs/s", "agree", "skipped");
      for (const System& s : systems) {
        const double share = median(s.adapter_share);
        std::printf("%-8s %12.1f %8.0f%% %8.0f%% %18.1f %8llu %8llu\n", s.name.c_str(),
                    median(s.rate), 100 * share, 100 * (1 - share), median(s.own_rate),
                    static_cast<unsigned long long>(s.counts[std::size_t(ConformClass::Agree)]),
                    static_cast<unsigned long long>(s.counts[std::size_t(ConformClass::Skipped)]));
      }
      std::printf("torch/python programs/s: %.2fx\n",
                  median(systems[0].rate) / median(systems[1].rate));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "conform_bench: %s\n", e.what());
      status = 1;
    }
  });
  return status;
}
