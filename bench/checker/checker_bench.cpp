// Checker throughput and denotational vs operational rd cost.
//
//   checker_bench                       all benchmarks, then the rd ratio table
//   checker_bench --benchmark_filter=Property   per-property rates only
//   checker_bench --rd-table                    the rd cost table only
//
// BM_Property/<property>/<precision>: one program checked per iteration (program i of seed 1
// at the default size); items/s is programs/s. BM_DefaultSet/<precision>: one program through
// every property of the default set per iteration. BM_Generate: the programs alone.
// BM_Run/<jobs>: run_checks over 300 programs with that many threads, wall time. The table at the
// end times ordinary evaluation (trace + R + evaluation of R's output; with the paper's R and with
// the linear R) and the denotational evaluator (tagged forward mode + J^T w) on d-fold nested
// derivatives of the same function.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>

#include "ad/linear_reverse_deriv.hpp"
#include "checker/runner.hpp"
#include "lang/parser.hpp"
#include "lang/type_checker.hpp"
#include "semantics/denotational_eval.hpp"
#include "semantics/ordinary_eval.hpp"
#include "support/stack.hpp"

namespace adlang {
namespace {

using namespace checker;

const PropertyInfo& property(const std::string& name) {
  for (const PropertyInfo& p : all_properties())
    if (name == p.name) return p;
  std::abort();
}

void BM_Property(benchmark::State& state, std::string name, Precision precision) {
  const PropertyInfo& p = property(name);
  CheckConfig c;
  c.precision = precision;
  GenConfig g = generator_config(p, 0);
  std::uint64_t i = 0;
  run_on_large_stack([&] {
    for (auto _ : state) {
      Program prog = generate_program(1, i, g);
      benchmark::DoNotOptimize(run_property(p, prog, c, case_seed(1, i)));
      ++i;
    }
  });
  state.SetItemsProcessed(static_cast<std::int64_t>(i));
}

void BM_DefaultSet(benchmark::State& state, Precision precision) {
  CheckConfig c;
  c.precision = precision;
  std::uint64_t i = 0;
  run_on_large_stack([&] {
    for (auto _ : state) {
      for (const PropertyInfo& p : all_properties()) {
        Program prog = generate_program(1, i, generator_config(p, 0));
        benchmark::DoNotOptimize(run_property(p, prog, c, case_seed(1, i)));
      }
      ++i;
    }
  });
  state.SetItemsProcessed(static_cast<std::int64_t>(i));
}

// Generation alone: one program per property of the default set, as BM_DefaultSet makes them
// (the share of the checker's time that is not checking).
void BM_Generate(benchmark::State& state) {
  std::uint64_t i = 0;
  for (auto _ : state) {
    for (const PropertyInfo& p : all_properties())
      benchmark::DoNotOptimize(generate_program(1, i, generator_config(p, 0)));
    ++i;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(i));
}

// `adlang check --count 300 --jobs J` as a library call, wall time: items/s is the default
// set's programs/s, as the command's table counts them (each program through every property).
void BM_Run(benchmark::State& state) {
  RunOptions o;
  o.count = 300;
  o.jobs = static_cast<unsigned>(state.range(0));
  std::uint64_t programs = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(run_checks(o, CheckConfig{}));
    programs += o.count;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(programs));
}

void register_all() {
  benchmark::RegisterBenchmark("BM_Generate", BM_Generate)->MinTime(1.0);
  for (int jobs : {1, 2, 4})
    benchmark::RegisterBenchmark("BM_Run", BM_Run)->Arg(jobs)->UseRealTime()->MinTime(2.0);
  for (const PropertyInfo& p : all_properties()) {
    for (Precision prec : {Precision::Double, Precision::Digits50}) {
      std::string n = std::string("BM_Property/") + p.name + "/" + to_string(prec);
      benchmark::RegisterBenchmark(n.c_str(), BM_Property, std::string(p.name), prec)->MinTime(1.0);
    }
  }
  for (Precision prec : {Precision::Double, Precision::Digits50}) {
    std::string n = std::string("BM_DefaultSet/") + to_string(prec);
    benchmark::RegisterBenchmark(n.c_str(), BM_DefaultSet, prec)->MinTime(2.0);
  }
}

// d nested gradients of f(y) = sin(y) * y * y at 0.7: grad[x](y1. grad[y1](y2. ... f(yd))).
std::string nested(int d) {
  std::string body =
      "sin(y" + std::to_string(d) + ") * y" + std::to_string(d) + " * y" + std::to_string(d);
  for (int k = d; k >= 1; --k)
    body = "grad[" + (k == 1 ? std::string("x") : "y" + std::to_string(k - 1)) + "](y" +
           std::to_string(k) + ": real. " + body + ")";
  return body;
}

template <class F>
double seconds_per_run(F&& f) {
  int runs = 0;
  auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  do {
    f();
    ++runs;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } while (elapsed < 0.3 && runs < 100000);
  return elapsed / runs;
}

Term nested_term(int d, NameSupply& names) {
  SyntaxProgram prog = parse_program(nested(d));
  for (const Name& n : prog.identifiers)
    names.reserve(n);
  return check_program(prog, {TypedName{Name("x"), Type::real()}}, names);
}

void rd_ratio_table() {
  constexpr int kDepths = 6;
  double den[kDepths + 1], op[kDepths + 1], lin[kDepths + 1];
  std::uint64_t steps[kDepths + 1] = {};
  const Value<double> x{0.7};
  // All denotations first: the operational runs leave gigabytes of R output to free.
  for (int d = 1; d <= kDepths; ++d) {
    run_on_large_stack([&] {
      NameSupply names;
      Term t = nested_term(d, names);
      den[d] = seconds_per_run([&] {
        DenEnv<double> g{{Name("x"), x}};
        benchmark::DoNotOptimize(denote(t, g));
      });
    });
  }
  // Operational rd with the R of `ad`: seconds per run, or -1 over the step budget.
  auto operational = [&](int d, AdMode ad, std::uint64_t* clause_steps) {
    double secs = -1;
    run_on_large_stack([&] {
      NameSupply names;
      Term t = nested_term(d, names);
      try {
        secs = seconds_per_run([&] {
          ValueEnv<double> rho;
          rho.push(Name("x"), x);
          EvalOptions o;
          o.max_derivative_steps = 2'000'000;
          o.max_trace_nodes = 2'000'000;
          o.max_rd_trace_nodes = 2'000'000;
          use_ad(o, ad);
          EvalContext cx(o, names);
          benchmark::DoNotOptimize(ordinary_eval(t, rho, nullptr, cx));
          if (clause_steps) *clause_steps = cx.derivative.clause_steps;
        });
      } catch (const Undefined&) {
        secs = -1;  // over the step budget: the paper's R is exponential in nesting
      }
    });
    return secs;
  };
  for (int d = 1; d <= kDepths; ++d)
    lin[d] = operational(d, AdMode::Linear, nullptr);
  for (int d = 1; d <= kDepths; ++d)
    op[d] = operational(d, AdMode::Paper, &steps[d]);
  std::printf(
      "\nrd by nesting depth: operational (trace + R + eval, the paper's R and the linear R) vs "
      "denotational (tagged forward mode)\n");
  std::printf("%5s %16s %12s %16s %16s %10s %10s\n", "depth", "op (paper R)", "R steps",
              "op (linear R)", "denotational", "paper/den", "linear/den");
  for (int d = 1; d <= kDepths; ++d) {
    char paper[32] = "(> 2e6 R steps)", ratio[16] = "-", st[24] = "-";
    if (op[d] >= 0) {
      std::snprintf(paper, sizeof paper, "%.3fus", op[d] * 1e6);
      std::snprintf(ratio, sizeof ratio, "%.1f", op[d] / den[d]);
      std::snprintf(st, sizeof st, "%llu", static_cast<unsigned long long>(steps[d]));
    }
    std::printf("%5d %16s %12s %14.3fus %14.3fus %10s %10.1f\n", d, paper, st, lin[d] * 1e6,
                den[d] * 1e6, ratio, lin[d] / den[d]);
  }
}

}  // namespace
}  // namespace adlang

int main(int argc, char** argv) {
  // --rd-table: only the table of denotational vs operational rd cost.
  if (argc > 1 && std::string(argv[1]) == "--rd-table") {
    adlang::rd_ratio_table();
    return 0;
  }
  adlang::register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  adlang::rd_ratio_table();
  return 0;
}
