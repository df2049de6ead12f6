// Issue 2, performance: ordinary evaluation of fib(25), ack(2, 9) and tak(18, 12, 6) written
// in .ad (examples/fib.ad, ack.ad, tak.ad) against the same functions in CPython, side by side
// in one run.
//
// What is timed, on both sides, is the compute time of one evaluation of the program whose
// source has already been read and compiled: for adlang, evaluate() as `adlang run` calls it
// (which includes the compiled evaluator's resolution of the IR, done per evaluation); for
// CPython, one call of the function, in bench/python_reference.py (run as a subprocess of this
// benchmark, best of 7 after a warm-up). Parsing and type checking, like CPython's compilation
// to bytecode, and process start-up are outside both timings. Both sides measure CPU time
// (Google Benchmark's thread CPU time; Python's time.process_time), since the machine may be
// shared. adlang's time is the best of 5 Google Benchmark repetitions. The reference
// (tree-walking) evaluator is timed too, for information.
#include <cstdlib>
#include <iostream>

#include "bench_support.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/ordinary_eval.hpp"

namespace adlang::bench {
namespace {

struct Case {
  const char* name;
  const char* file;
  std::vector<std::string> env;
  const char* python_args;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"fib(25)", "fib.ad", {"n=25"}, "fib 25"},
      {"ack(2,9)", "ack.ad", {"m=2", "n=9"}, "ack 2 9"},
      {"tak(18,12,6)", "tak.ad", {"x=18", "y=12", "z=6"}, "tak 18 12 6"},
  };
  return all;
}

void BM_Evaluate(benchmark::State& state, const Case& c, Evaluator evaluator) {
  auto p = load(source_dir() + "/examples/" + c.file, c.env);
  ValueEnv<double> rho = inputs_of(*p);
  EvalOptions o;
  o.evaluator = evaluator;
  for (auto _ : state) {
    EvalContext cx(o, p->names);
    Value<double> v = evaluate(p->term, rho, cx);
    benchmark::DoNotOptimize(v.data());
  }
}

}  // namespace
}  // namespace adlang::bench

int main(int argc, char** argv) {
  using namespace adlang;
  using namespace adlang::bench;
  for (const Case& c : cases()) {
    benchmark::RegisterBenchmark((std::string("compiled/") + c.name).c_str(), BM_Evaluate, c,
                                 Evaluator::Compiled)
        ->Repetitions(5)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("reference/") + c.name).c_str(), BM_Evaluate, c,
                                 Evaluator::Reference)
        ->Repetitions(5)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  BestTimeReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);

  std::printf("\n%-14s %14s %14s %14s %16s\n", "program", "adlang ms", "reference ms", "python3 ms",
              "python3/adlang");
  for (const Case& c : cases()) {
    std::string out =
        capture("python3 " + source_dir() + "/bench/python_reference.py " + c.python_args);
    double py = std::atof(out.c_str());
    double fast = reporter.best[std::string("compiled/") + c.name];
    double ref = reporter.best[std::string("reference/") + c.name];
    std::printf("%-14s %14.3f %14.3f %14.3f %16.2f\n", c.name, fast * 1e3, ref * 1e3, py * 1e3,
                fast > 0 ? py / fast : 0.0);
  }
  std::printf("(python3/adlang >= 1 means adlang is at least as fast as CPython)\n");
  return 0;
}
