// Issue 5, benchmarks: adlang's gradients against ADOL-C and Sacado, side by side in one run.
//
//   (a) f(x) = sum sin(x_i) * x_{i+1} over n = 10^5 inputs (a generated .ad program),
//   (b) the 10^6-step scalar chain y <- sin(y) * 1.0001 + y * y * 1e-6 (tail recursion),
//   (c) a 10-input function differentiated 10^5 times inside a recursive gradient-descent loop.
//
// adlang: the program is parsed and type-checked once; what is timed is evaluate() as
// `adlang run` calls it (compiled evaluator, linear R): for a gradient that is tracing
// (symbolic evaluation), R, and evaluating R's output. "primal" is the same program without
// the derivative. ADOL-C: taping (trace_on ... trace_off) plus gradient(), every time, since
// adlang traces every time too; in (c) the tape is made anew at every step of the loop.
// Sacado: Rad::ADvar (operator-overloading reverse mode), the function plus Gradcomp(). The
// C++ primal is the plain double function. Times are CPU time of the benchmark's thread (the
// machine may be shared), the best of 3 repetitions. Peak memory is measured in a fresh
// process per contender (this program run as `ad_bench --peak NAME`): the growth of the peak
// resident set (VmHWM) over one run, after the programs are loaded and the memory freed while
// loading is returned to the system (malloc_trim). `ad_bench --cases c` loads, times and prints
// only the cases named (any of a, b, c; the phases of (b) only with b), for quick runs and
// profiles of one case.
#include <adolc/adolc.h>
#include <malloc.h>

#include <Sacado_trad.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "ad/linear_reverse_deriv.hpp"
#include "ad_programs.hpp"
#include "bench_support.hpp"
#include "lang/parser.hpp"
#include "lang/term_size.hpp"
#include "lang/type_checker.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/symbolic_eval.hpp"
#include "support/stack.hpp"

namespace adlang::bench {
namespace {

constexpr int kSumBlocks = 1000;  // of 100 inputs each
constexpr int kSumInputs = kSumBlocks * kBlock;
// The chain's length; ADLANG_BENCH_CHAIN_STEPS overrides it (for quick runs).
const long kChainSteps = [] {
  const char* s = std::getenv("ADLANG_BENCH_CHAIN_STEPS");
  return s ? std::atol(s) : 1000000L;
}();
constexpr long kDescentSteps = 100000;
// Each contender's runs (the table takes the best); ADLANG_BENCH_REPEATS overrides it (for
// profiling one contender's timed runs against the set-up).
const int kRepeats = [] {
  const char* s = std::getenv("ADLANG_BENCH_REPEATS");
  return s ? std::max(1, std::atoi(s)) : 3;
}();
// The cases run (--cases).
std::string g_cases = "abc";
bool has_case(char k) {
  return g_cases.find(k) != std::string::npos;
}

struct Program {
  Term term;
  NameSupply names;
  ValueEnv<double> rho;
};

std::unique_ptr<Program> compile(const std::string& text,
                                 const std::vector<std::pair<std::string, Value<double>>>& in,
                                 const std::vector<Type>& types) {
  auto p = std::make_unique<Program>();
  SyntaxProgram s = parse_program(text);
  for (const Name& n : s.identifiers)
    p->names.reserve(n);
  std::vector<TypedName> inputs;
  for (std::size_t i = 0; i < in.size(); ++i) {
    inputs.push_back(TypedName{Name(in[i].first), types[i]});
    p->rho.push(Name(in[i].first), in[i].second);
  }
  p->term = check_program(s, inputs, p->names);
  return p;
}

EvalOptions adlang_options() {
  EvalOptions o;
  o.evaluator = Evaluator::Compiled;
  use_ad(o, AdMode::Tape);
  o.max_derivative_steps = UINT64_MAX;
  o.max_trace_nodes = UINT64_MAX;
  o.max_rd_trace_nodes = UINT64_MAX;
  o.fuel = UINT64_MAX;
  return o;
}

Value<double> run(Program& p) {
  EvalContext cx(adlang_options(), p.names);
  return evaluate(p.term, p.rho, cx);
}

Type blocks_value_type(int lo, int hi) {
  if (hi - lo == 1) return Type::real_power(kBlock);
  int mid = (lo + hi) / 2;
  return Type::pair(blocks_value_type(lo, mid), blocks_value_type(mid, hi));
}

Value<double> sum_point() {
  Value<double> v(kSumInputs);
  for (int i = 0; i < kSumInputs; ++i)
    v[i] = 0.5 + 0.25 * std::sin(i);
  return v;
}

// The adlang programs, loaded once.
struct Programs {
  std::unique_ptr<Program> a_primal, a_grad, b_primal, b_grad, c_primal, c_grad;
};

Programs& programs() {
  static Programs p = [] {
    Programs ps;
    if (has_case('a')) {
      Value<double> x = sum_point();
      Type tn = blocks_value_type(0, kSumBlocks);
      ps.a_primal = compile(sum_program(kSumBlocks, false), {{"v", x}}, {tn});
      ps.a_grad = compile(sum_program(kSumBlocks, true), {{"v", x}}, {tn});
    }
    if (has_case('b')) {
      Value<double> n{double(kChainSteps)}, y0{0.5};
      ps.b_primal =
          compile(chain_program(false), {{"n", n}, {"y0", y0}}, {Type::real(), Type::real()});
      ps.b_grad =
          compile(chain_program(true), {{"n", n}, {"y0", y0}}, {Type::real(), Type::real()});
    }
    if (has_case('c')) {
      Value<double> k{double(kDescentSteps)};
      ps.c_primal = compile(descent_program(false), {{"n", k}}, {Type::real()});
      ps.c_grad = compile(descent_program(true), {{"n", k}}, {Type::real()});
    }
    return ps;
  }();
  return p;
}

// ---- the contenders, one function each (one run) ----

double adlang_run(Program& p) {
  return run(p)[0];
}

double native_a() {
  Value<double> x = sum_point();
  return sum_function(std::vector<double>(x.begin(), x.end()));
}

double adolc_a() {
  Value<double> x = sum_point();
  std::vector<double> xs(x.begin(), x.end()), g(xs.size());
  trace_on(1);
  std::vector<adouble> ax(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i)
    ax[i] <<= xs[i];
  adouble ay = sum_function(ax);
  double y;
  ay >>= y;
  trace_off();
  gradient(1, static_cast<int>(xs.size()), xs.data(), g.data());
  return g[0];
}

double sacado_a() {
  using R = Sacado::Rad::ADvar<double>;
  Value<double> x = sum_point();
  std::vector<R> ax(x.begin(), x.end());
  R y = sum_function(ax);
  R::Gradcomp();
  return ax[0].adj();
}

double native_b() {
  return chain_function(0.5, kChainSteps);
}

double adolc_b() {
  double x = 0.5, g = 0;
  trace_on(2);
  adouble ax;
  ax <<= x;
  adouble ay = chain_function(ax, kChainSteps);
  double y;
  ay >>= y;
  trace_off();
  gradient(2, 1, &x, &g);
  return g;
}

double sacado_b() {
  using R = Sacado::Rad::ADvar<double>;
  R x = 0.5;
  R y = chain_function(x, kChainSteps);
  R::Gradcomp();
  return x.adj();
}

double native_c() {
  std::vector<double> w(10, 0.0);
  for (long k = 0; k < kDescentSteps; ++k) {
    double s = descent_f(w);
    for (double& wi : w)
      wi -= 0.000000001 * s;
  }
  return w[0];
}

double adolc_c() {
  std::vector<double> w(10, 0.0), g(10);
  for (long k = 0; k < kDescentSteps; ++k) {
    trace_on(3);
    std::vector<adouble> aw(10);
    for (int i = 0; i < 10; ++i)
      aw[i] <<= w[i];
    adouble ay = descent_f(aw);
    double y;
    ay >>= y;
    trace_off();
    gradient(3, 10, w.data(), g.data());
    for (int i = 0; i < 10; ++i)
      w[i] -= 0.01 * g[i];
  }
  return w[0];
}

double sacado_c() {
  using R = Sacado::Rad::ADvar<double>;
  std::vector<double> w(10, 0.0);
  for (long k = 0; k < kDescentSteps; ++k) {
    std::vector<R> aw(w.begin(), w.end());
    R y = descent_f(aw);
    R::Gradcomp();
    for (int i = 0; i < 10; ++i)
      w[i] -= 0.01 * aw[i].adj();
  }
  return w[0];
}

struct Contender {
  std::string name;
  std::function<double()> run;
};

std::vector<Contender> contenders() {
  Programs& p = programs();
  std::vector<Contender> all = {
      {"a/adlang_primal", [&] { return adlang_run(*p.a_primal); }},
      {"a/adlang_gradient", [&] { return adlang_run(*p.a_grad); }},
      {"a/cpp_primal", native_a},
      {"a/adolc_gradient", adolc_a},
      {"a/sacado_gradient", sacado_a},
      {"b/adlang_primal", [&] { return adlang_run(*p.b_primal); }},
      {"b/adlang_gradient", [&] { return adlang_run(*p.b_grad); }},
      {"b/cpp_primal", native_b},
      {"b/adolc_gradient", adolc_b},
      {"b/sacado_gradient", sacado_b},
      {"c/adlang_primal", [&] { return adlang_run(*p.c_primal); }},
      {"c/adlang_gradient", [&] { return adlang_run(*p.c_grad); }},
      {"c/cpp_primal", native_c},
      {"c/adolc_gradient", adolc_c},
      {"c/sacado_gradient", sacado_c},
  };
  std::erase_if(all, [](const Contender& c) { return !has_case(c.name[0]); });
  return all;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The phases of adlang's gradient of (b): tracing the body, the linear R, evaluating R's output.
void chain_phases() {
  Programs& ps = programs();
  Program& p = *ps.b_grad;
  const LetRec* defs = p.term.as<LetRec>();
  const Rd* rd = defs->body.as<Rd>();
  EvalContext cx(adlang_options(), p.names);
  FunFrame phi{defs, nullptr, UINT64_MAX};
  ValueEnv<double> rho = p.rho;
  rho.push(rd->var, Value<double>{0.5});
  auto t0 = std::chrono::steady_clock::now();
  Term c = symbolic_eval(rd->body, rho, &phi, cx).trace;
  double t_trace = seconds_since(t0);
  rho.pop();
  t0 = std::chrono::steady_clock::now();
  Term d = linear_reverse_deriv(rd->cotangent, mk::var(Name("y0"), Type::real()), rd->var,
                                Type::real(), c, p.names);
  double t_r = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  Value<double> g = compiled_eval(d, rho, cx);
  double t_eval = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  TermSize cs = term_size(c), ds = term_size(d);
  c = Term();
  d = Term();
  double t_free = seconds_since(t0);
  std::printf(
      "\n(b) phases of adlang's gradient: trace %.3f s (%.0f nodes), linear R %.3f s (%.0f nodes, "
      "%.2f x the trace), evaluation %.3f s, sizes and freeing %.3f s; gradient %.17g\n",
      t_trace, cs.tree, t_r, ds.tree, ds.tree / cs.tree, t_eval, t_free, g[0]);
}

}  // namespace
}  // namespace adlang::bench

int main(int argc, char** argv) {
  using namespace adlang;
  using namespace adlang::bench;
  // ADOL-C writes its tapes (ADOLC-*.tap) to the working directory when they outgrow its
  // buffers: keep them out of the source tree.
  std::filesystem::current_path(std::filesystem::temp_directory_path());
  if (argc >= 3 && std::string(argv[1]) == "--cases") {
    g_cases = argv[2];
    for (int i = 3; i <= argc; ++i)  // argv[argc] is null
      argv[i - 2] = argv[i];
    argc -= 2;
  }
  // `ad_bench --peak NAME`: runs one contender once in this fresh process and prints how much
  // its peak resident set grew (MiB) over what loading the programs took.
  if (argc == 3 && std::string(argv[1]) == "--peak") {
    double growth = -1;
    run_on_large_stack([&] {
      programs();
      for (const Contender& c : contenders()) {
        if (c.name != argv[2]) continue;
        malloc_trim(0);  // memory freed while loading goes back to the system first
        reset_peak_rss();
        double before = peak_rss_mib();
        c.run();
        growth = peak_rss_mib() - before;
      }
    });
    std::printf("%.1f\n", growth);
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  BestTimeReporter reporter;
  std::map<std::string, double> peak, result;
  run_on_large_stack([&] {
    programs();
    std::vector<Contender> all = contenders();
    for (const Contender& c : all) {
      benchmark::RegisterBenchmark(c.name.c_str(),
                                   [f = c.run, &result, name = c.name](benchmark::State& st) {
                                     for (auto _ : st)
                                       result[name] = f();
                                   })
          ->Iterations(1)
          ->Repetitions(kRepeats)
          ->Unit(benchmark::kMillisecond);
    }
    benchmark::RunSpecifiedBenchmarks(&reporter);
    for (const Contender& c : all)
      peak[c.name] = std::atof(capture(std::filesystem::read_symlink("/proc/self/exe").string() +
                                       " --cases " + g_cases + " --peak " + c.name)
                                   .c_str());
  });

  std::printf("\n%-4s %12s %12s %12s %12s %12s %10s %10s %10s\n", "case", "adlang grad",
              "adlang prim", "ADOL-C grad", "Sacado grad", "C++ primal", "grad/prim", "/ADOL-C",
              "/Sacado");
  for (const char* k : {"a", "b", "c"}) {
    if (!has_case(k[0])) continue;
    std::string s(k);
    double g = reporter.best[s + "/adlang_gradient"], pr = reporter.best[s + "/adlang_primal"];
    double ad = reporter.best[s + "/adolc_gradient"], sa = reporter.best[s + "/sacado_gradient"];
    double cp = reporter.best[s + "/cpp_primal"];
    std::printf("(%s)  %10.1fms %10.1fms %10.1fms %10.1fms %10.1fms %10.2f %10.2f %10.2f\n", k,
                g * 1e3, pr * 1e3, ad * 1e3, sa * 1e3, cp * 1e3, g / pr, g / ad, g / sa);
  }
  std::printf(
      "\nADOL-C gradient / C++ primal: (a) %.1f (b) %.1f (c) %.1f; Sacado: %.1f %.1f %.1f\n",
      reporter.best["a/adolc_gradient"] / reporter.best["a/cpp_primal"],
      reporter.best["b/adolc_gradient"] / reporter.best["b/cpp_primal"],
      reporter.best["c/adolc_gradient"] / reporter.best["c/cpp_primal"],
      reporter.best["a/sacado_gradient"] / reporter.best["a/cpp_primal"],
      reporter.best["b/sacado_gradient"] / reporter.best["b/cpp_primal"],
      reporter.best["c/sacado_gradient"] / reporter.best["c/cpp_primal"]);
  std::printf("\npeak memory growth (MiB):\n");
  for (const auto& [name, mib] : peak)
    std::printf("  %-20s %10.1f\n", name.c_str(), mib);
  std::printf("\nresults (adlang and the others agree): \n");
  for (const char* k : {"a", "b", "c"}) {
    if (!has_case(k[0])) continue;
    std::string s(k);
    std::printf("  (%s) adlang %.15g  ADOL-C %.15g  Sacado %.15g\n", k,
                result[s + "/adlang_gradient"], result[s + "/adolc_gradient"],
                result[s + "/sacado_gradient"]);
  }
  std::fflush(stdout);
  // Last, as it takes minutes: the symbolic path on (b), phase by phase.
  if (has_case('b')) run_on_large_stack([] { chain_phases(); });
  return 0;
}
