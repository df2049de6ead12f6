// Reverse mode in the tagged graph (docs/performance.md Sec. 11): gradient ÷ primal on the
// graph, with rd lowered to forward and adjoint bodies (RdLowering::Adjoint, static engine,
// 1 thread), against gradient ÷ primal of the compiled evaluator with its run-time tape
// (AdMode::Tape), side by side in one run; and the graph with one host-side Rd node
// (RdLowering::Host) for comparison. Programs:
//
//   rec  def f(p: real * real): real = let (x, n) = p in if n < 0.5 then x else sin(f(x, n-1)) * x
//        primal f(x, 10^5), gradient 1.rd[x](y: real. f(y, 10^5)): a non-tail recursion
//        10^5 deep, whose adjoint runs after the forward recursion has returned;
//   (a), (b), (c) the ad_bench cases (bench/ad_programs.hpp), as adlang source text.
//
// Times are CPU time of the process (the machine may be shared; the graph runs on the calling
// thread and one worker at most), the best of `reps` runs, primal and gradient measured back to
// back in each repetition. Two measures, each the same for both engines as far as they allow:
// prepared, a graph lowered and scheduled once (make_graph_schedule), as TensorFlow builds a
// graph and initialises its executor once and runs it at every step, against the compiled
// evaluator's code compiled once, an rd's body included (one Machine, whose first run, untimed,
// compiles it: PreparedCompiled); and per run, the graph's run making its schedule (lowered
// once) against the compiled evaluator compiling the term (and N), as `adlang run` does. The
// target (graph ratio within 2x of the tape's) is for prepared runs: a ratio of the runs' own
// costs; per run, both engines' times are mostly their preparation (docs/performance.md Sec.
// 11.4). Copies of the inputs and of the program's names are not timed. The graph's gradient
// is also run with every rd through its call sites (RdLowering::Calls), where the default
// inlines an rd whose body makes no calls.
// Memory: the graph's GraphStats (peak saved values and the store's bytes then), and the tape's
// size, computed (see TapeModel), as the tape exposes no size; and for both, the growth of the peak
// resident set over one gradient run in a forked child.
//
//   graph_ad_bench [reps]
//
// (b) runs 10^5 steps, not ad_bench's 10^6 (ADLANG_BENCH_CHAIN_STEPS overrides it): the graph
// has no tail calls, so the chain keeps a frame per step live, about 1.7 GiB at 10^6 steps
// with the adjoint's frames. ADLANG_BENCH_CASE=PREFIX runs only the cases named so.
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ad_programs.hpp"
#include "bench_support.hpp"
#include "lang/parser.hpp"
#include "lang/type_checker.hpp"
#include "semantics/compiled/compiler.hpp"
#include "semantics/compiled/machine.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/graph/executor.hpp"
#include "semantics/graph/lower.hpp"
#include "semantics/graph/schedule.hpp"
#include "support/stack.hpp"

namespace adlang::bench {
namespace {

constexpr long kRecursionDepth = 100000;
// (a)'s blocks of 100 inputs: 1000 (10^5 inputs), as ad_bench. ADLANG_BENCH_SUM_BLOCKS
// overrides it (docs/performance.md Sec. 11 also gives 100 blocks, 10^4 inputs).
const int kSumBlocks = [] {
  const char* s = std::getenv("ADLANG_BENCH_SUM_BLOCKS");
  return s ? std::atoi(s) : 1000;
}();
const int kSumInputs = kSumBlocks * kBlock;
const long kChainSteps = [] {
  const char* s = std::getenv("ADLANG_BENCH_CHAIN_STEPS");
  return s ? std::atol(s) : 100000L;
}();
constexpr long kDescentSteps = 100000;

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double timed(const std::function<void()>& f) {
  double t0 = cpu_seconds();
  f();
  return cpu_seconds() - t0;
}

// The tape's memory for a gradient, computed: semantics/compiled/tape.hpp exposes no size. Per
// taped operation it stores a Record (OpKind + uint32 vector size: 8 bytes) on ops_, one int32 id
// per operand on ids_, one double per operand on vals_ where the operator's reverse template reads
// its argument (mul, div, sin, ...; not +, -, neg), and for the sweep one double adjoint and one
// char flag per result id (adj_, set_). Counted per step of the program from its source; the
// BlockStacks' rounding to blocks (up to 2 MiB) is not included.
struct TapeModel {
  double ops = 0, operand_ids = 0, operand_values = 0, results = 0;  // per step
  double steps = 0;  // steps whose records are on one tape at once
  double bytes() const {
    return steps * (8 * ops + 4 * operand_ids + 8 * operand_values + 9 * results);
  }
};

struct Compiled {
  Term term;
  NameSupply names;
  std::vector<std::pair<Name, Type>> inputs;
  std::vector<Value<double>> values;
};

std::unique_ptr<Compiled> compile(const std::string& text,
                                  const std::vector<std::pair<std::string, Value<double>>>& in,
                                  const std::vector<Type>& types) {
  auto p = std::make_unique<Compiled>();
  SyntaxProgram s = parse_program(text);
  for (const Name& n : s.identifiers)
    p->names.reserve(n);
  std::vector<TypedName> typed;
  for (std::size_t i = 0; i < in.size(); ++i) {
    typed.push_back(TypedName{Name(in[i].first), types[i]});
    p->inputs.emplace_back(Name(in[i].first), types[i]);
    p->values.push_back(in[i].second);
  }
  p->term = check_program(s, typed, p->names);
  return p;
}

EvalOptions eval_options() {
  EvalOptions o;
  o.evaluator = Evaluator::Compiled;
  use_ad(o, AdMode::Tape);
  o.max_derivative_steps = UINT64_MAX;
  o.max_trace_nodes = UINT64_MAX;
  o.max_rd_trace_nodes = UINT64_MAX;
  o.fuel = UINT64_MAX / 4;
  return o;
}

// A run's first output and its CPU time. The time is of the evaluation only: the inputs' and
// the names' copies are made before (a program of 10^5 variables has as many names, and the
// copy of its NameSupply cost as much as the graph's run).
struct Timed {
  double value = 0, seconds = 0;
};

// The program's inputs as the compiled evaluator takes them.
ValueEnv<double> input_env(const Compiled& p) {
  ValueEnv<double> rho;
  for (std::size_t i = 0; i < p.inputs.size(); ++i)
    rho.push(p.inputs[i].first, p.values[i]);
  return rho;
}

Timed run_compiled(const Compiled& p) {
  ValueEnv<double> rho = input_env(p);
  NameSupply names = p.names;
  EvalContext cx(eval_options(), names);
  Timed t;
  t.seconds = timed([&] { t.value = evaluate(p.term, rho, cx)[0]; });
  return t;
}

// The compiled evaluator prepared: its code for the term compiled once, and one Machine run
// at every repetition. The Machine compiles an rd's body N when its tape first needs it and
// keeps that code for the Machine's later runs, so the first run (made here, untimed) compiles
// N and the timed ones do not: as the graph's adjoint is built once, before its runs.
class PreparedCompiled {
 public:
  explicit PreparedCompiled(const Compiled& p)
      : p_(p), rho_(input_env(p)), names_(p.names), cx_(eval_options(), names_) {
    compiled::Compiler<double>(prog_, rho_).compile_main(p.term);
    machine_ = std::make_unique<compiled::Machine<double>>(prog_, rho_, cx_);
    machine_->run(p.term.type());
  }
  Timed run() {
    Timed t;
    t.seconds = timed([&] { t.value = machine_->run(p_.term.type())[0]; });
    return t;
  }

 private:
  const Compiled& p_;
  ValueEnv<double> rho_;
  NameSupply names_;
  EvalContext cx_;
  compiled::Program<double> prog_;
  std::unique_ptr<compiled::Machine<double>> machine_;
};

// A run of a lowered graph; with `schedule`, of its schedule made once (GraphOptions::schedule),
// else the run makes it.
Timed run_graph_once(const Compiled& p, const graph::Graph& g, graph::GraphStats* stats,
                     const graph::GraphSchedule* schedule = nullptr) {
  graph::GraphOptions o;
  o.schedule = schedule;
  o.engine = graph::Engine::Static;
  o.threads = 1;
  o.max_frames = 50'000'000;
  o.eval = eval_options();
  NameSupply names = p.names;
  Timed t;
  t.seconds = timed([&] {
    Value<double> v = graph::run_graph(g, p.values, o, names, stats);
    t.value = v.empty() ? 0 : v[0];
  });
  return t;
}

// The growth of the peak resident set (MiB) over one run of f, in a forked child (so that
// neither memory kept by earlier runs nor the parent's later runs count).
double peak_growth_mib(const std::function<void()>& f) {
  int fd[2];
  if (pipe(fd) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    malloc_trim(0);
    reset_peak_rss();
    double before = peak_rss_mib();
    f();
    double growth = peak_rss_mib() - before;
    ssize_t w = write(fd[1], &growth, sizeof growth);
    _exit(w == sizeof growth ? 0 : 1);
  }
  close(fd[1]);
  double growth = -1;
  if (read(fd[0], &growth, sizeof growth) != sizeof growth) growth = -1;
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return growth;
}

struct Case {
  std::string name;
  std::unique_ptr<Compiled> primal, gradient;
  TapeModel tape;
};

Type blocks_value_type(int lo, int hi) {
  if (hi - lo == 1) return Type::real_power(kBlock);
  int mid = (lo + hi) / 2;
  return Type::pair(blocks_value_type(lo, mid), blocks_value_type(mid, hi));
}

std::vector<Case> cases() {
  std::vector<Case> cs;
  const std::string rec =
      "def f(p: real * real): real =\n"
      "  let (x: real, n: real) = p in if n < 0.5 then x else sin(f(x, n - 1)) * x;\n";
  Value<double> x{1.0}, depth{double(kRecursionDepth)};
  // A step tapes sin (1 operand, read) and mul (2 operands, read).
  cs.push_back(
      {"rec 10^5",
       compile(rec + "f(x0, n)\n", {{"x0", x}, {"n", depth}}, {Type::real(), Type::real()}),
       compile(rec + "1.rd[x0](y: real. f(y, n))\n", {{"x0", x}, {"n", depth}},
               {Type::real(), Type::real()}),
       TapeModel{2, 3, 3, 2, double(kRecursionDepth)}});
  Value<double> v(kSumInputs);
  for (int i = 0; i < kSumInputs; ++i)
    v[i] = 0.5 + 0.25 * std::sin(i);
  Type tn = blocks_value_type(0, kSumBlocks);
  // A step: sin (1, read), mul (2, read), add (2, not read).
  cs.push_back({"(a) sum", compile(sum_program(kSumBlocks, false), {{"v", v}}, {tn}),
                compile(sum_program(kSumBlocks, true), {{"v", v}}, {tn}),
                TapeModel{3, 5, 3, 3, double(kSumInputs)}});
  Value<double> n{double(kChainSteps)}, y0{0.5};
  // A step: sin (1, read), three muls (2 each, read), add (2, not read).
  cs.push_back({"(b) chain",
                compile(chain_program(false), {{"n", n}, {"y0", y0}}, {Type::real(), Type::real()}),
                compile(chain_program(true), {{"n", n}, {"y0", y0}}, {Type::real(), Type::real()}),
                TapeModel{5, 9, 7, 5, double(kChainSteps)}});
  Value<double> k{double(kDescentSteps)};
  // One tape per gradient, of f(w): 10 squares (2 subs, 1 mul), 9 terms 0.1*sin(w_i)*w_{i+1}
  // (sin, 2 muls), 18 adds; only one tape is alive at a time.
  cs.push_back({"(c) descent", compile(descent_program(false), {{"n", k}}, {Type::real()}),
                compile(descent_program(true), {{"n", k}}, {Type::real()}),
                TapeModel{10 * 3 + 9 * 3 + 18, 10 * 5 + 9 * 5 + 18 * 2, 10 * 2 + 9 * 5, 75, 1}});
  return cs;
}

}  // namespace
}  // namespace adlang::bench

namespace adlang::bench {
namespace {

void bench_main(int reps) {
  std::vector<Case> cs = cases();

  struct Row {
    std::string name;
    double gp = 1e30, gg = 1e30, cp = 1e30, cg = 1e30, host = 1e30;
    double gg_calls = 1e30;  // prepared, the rd through call sites (RdLowering::Calls)
    std::uint32_t inlined = 0;
    double gp_scheduling = 1e30, gg_scheduling = 1e30;  // each run making its schedule
    double cp_compiled = 1e30, cg_compiled = 1e30;      // the term compiled once
    double g_value = 0, c_value = 0, host_value = 0;
    graph::GraphStats stats;
    double tape_bytes = 0, rss_graph = 0, rss_tape = 0, rss_graph_primal = 0;
    bool host_ok = true;
  };
  std::vector<Row> rows;
  const char* only = std::getenv("ADLANG_BENCH_CASE");
  for (Case& c : cs) {
    if (only && c.name.rfind(only, 0) != 0) continue;
    Row r;
    r.name = c.name;
    r.tape_bytes = c.tape.bytes();
    graph::Graph gprimal, ggrad, gcalls, ghost;
    try {
      double lowering = timed([&] {
        gprimal = graph::lower_to_graph(c.primal->term, c.primal->inputs);
        ggrad =
            graph::lower_to_graph(c.gradient->term, c.gradient->inputs, graph::RdLowering::Adjoint);
        gcalls =
            graph::lower_to_graph(c.gradient->term, c.gradient->inputs, graph::RdLowering::Calls);
        ghost =
            graph::lower_to_graph(c.gradient->term, c.gradient->inputs, graph::RdLowering::Host);
      });
      r.inlined = ggrad.inlined_rds();
      std::printf("%s: lowered in %.2fs (adjoint graph: %zu nodes)\n", c.name.c_str(), lowering,
                  ggrad.nodes.size());
    } catch (const std::exception& e) {
      std::printf("%s: skipped, not lowered to the graph: %s\n", c.name.c_str(), e.what());
      continue;
    }
    // Each graph's schedule, made once, as its lowering is (deadness elided: the default).
    graph::GraphSchedule sprimal, sgrad, scalls, shost;
    double scheduling = timed([&] {
      sprimal = graph::make_graph_schedule(gprimal);
      sgrad = graph::make_graph_schedule(ggrad);
      scalls = graph::make_graph_schedule(gcalls);
      shost = graph::make_graph_schedule(ghost);
    });
    std::unique_ptr<PreparedCompiled> cprimal, cgrad;
    double compiling = timed([&] {
      cprimal = std::make_unique<PreparedCompiled>(*c.primal);
      cgrad = std::make_unique<PreparedCompiled>(*c.gradient);
    });
    std::printf(
        "%s: scheduled in %.2fs; compiled (the compiled evaluator's code, and one run each) in "
        "%.2fs\n",
        c.name.c_str(), scheduling, compiling);
    // Memory first, in fresh children, before this process has kept any tape memory.
    r.rss_graph = peak_growth_mib([&] { run_graph_once(*c.gradient, ggrad, nullptr); });
    r.rss_tape = peak_growth_mib([&] { run_compiled(*c.gradient); });
    r.rss_graph_primal = peak_growth_mib([&] { run_graph_once(*c.primal, gprimal, nullptr); });
    for (int i = 0; i < reps; ++i) {
      r.gp = std::min(r.gp, run_graph_once(*c.primal, gprimal, nullptr, &sprimal).seconds);
      Timed gg = run_graph_once(*c.gradient, ggrad, &r.stats, &sgrad);
      r.gg = std::min(r.gg, gg.seconds);
      r.g_value = gg.value;
      r.gg_calls =
          std::min(r.gg_calls, run_graph_once(*c.gradient, gcalls, nullptr, &scalls).seconds);
      r.gp_scheduling =
          std::min(r.gp_scheduling, run_graph_once(*c.primal, gprimal, nullptr).seconds);
      r.gg_scheduling =
          std::min(r.gg_scheduling, run_graph_once(*c.gradient, ggrad, nullptr).seconds);
      r.cp = std::min(r.cp, run_compiled(*c.primal).seconds);
      r.cp_compiled = std::min(r.cp_compiled, cprimal->run().seconds);
      r.cg_compiled = std::min(r.cg_compiled, cgrad->run().seconds);
      Timed cg = run_compiled(*c.gradient);
      r.cg = std::min(r.cg, cg.seconds);
      r.c_value = cg.value;
      try {
        Timed h = run_graph_once(*c.gradient, ghost, nullptr, &shost);
        r.host = std::min(r.host, h.seconds);
        r.host_value = h.value;
      } catch (const std::exception& e) {
        if (r.host_ok) std::printf("%s: host Rd node: %s\n", c.name.c_str(), e.what());
        r.host_ok = false;
      }
    }
    std::printf(
        "%-13s graph primal %.4fs gradient %.4fs | compiled primal %.4fs gradient %.4fs | "
        "host Rd %.4fs | values graph %.17g compiled %.17g host %.17g\n",
        r.name.c_str(), r.gp, r.gg, r.cp, r.cg, r.host, r.g_value, r.c_value, r.host_value);
    std::fflush(stdout);
    rows.push_back(r);
  }

  std::printf(
      "\nCPU seconds, best of %d; ratio = gradient / primal; target: graph ratio / compiled ratio "
      "<= 2, prepared.\nPrepared: the graph lowered and scheduled once, the compiled evaluator's "
      "code compiled once (an rd's body at its first run, untimed). Per run: the graph's run "
      "makes its schedule (it is lowered once), the compiled evaluator compiles the term and "
      "the rd's body, as `adlang run` does.\n",
      reps);
  std::printf("%-13s | %-57s | %-57s | %s\n", "", "prepared", "per run", "");
  std::printf("%-13s | %8s %8s %6s %8s %8s %6s %6s | %8s %8s %6s %8s %8s %6s %6s | %8s %8s\n",
              "program", "g.primal", "g.grad", "ratio", "c.primal", "c.grad", "ratio", "g/c",
              "g.primal", "g.grad", "ratio", "c.primal", "c.grad", "ratio", "g/c", "host Rd",
              "host/c.g");
  for (const Row& r : rows) {
    const double gr = r.gg / r.gp, cr = r.cg_compiled / r.cp_compiled;
    const double gr1 = r.gg_scheduling / r.gp_scheduling, cr1 = r.cg / r.cp;
    std::printf(
        "%-13s | %8.4f %8.4f %6.2f %8.4f %8.4f %6.2f %5.2fx | %8.4f %8.4f %6.2f %8.4f %8.4f %6.2f "
        "%5.2fx | %8.4f %7.2fx\n",
        r.name.c_str(), r.gp, r.gg, gr, r.cp_compiled, r.cg_compiled, cr, gr / cr, r.gp_scheduling,
        r.gg_scheduling, gr1, r.cp, r.cg, cr1, gr1 / cr1, r.host_ok ? r.host : 0.0,
        r.host_ok ? r.host / r.cg : 0.0);
  }
  std::printf(
      "\nInlining (prepared): the graph gradient with its rd inlined into the host where its "
      "body makes no calls (the default), and through its two call sites (--rd calls)\n");
  std::printf("%-13s %8s %12s %12s %12s\n", "program", "inlined", "g.grad", "calls g.grad",
              "calls/inlined");
  for (const Row& r : rows)
    std::printf("%-13s %8u %11.4fs %11.4fs %11.2fx\n", r.name.c_str(), r.inlined, r.gg, r.gg_calls,
                r.gg_calls / r.gg);
  std::printf(
      "\nMemory of one gradient: graph saved values (GraphStats) vs the tape (computed); peak RSS "
      "growth in a forked child of the graph gradient, the compiled gradient, the graph "
      "primal\n");
  std::printf("%-13s %12s %14s %14s %12s %12s %12s %12s %12s\n", "program", "saves", "peak saved",
              "peak bytes", "tape bytes", "bytes ratio", "rss graph", "rss tape", "rss g.primal");
  for (const Row& r : rows)
    std::printf("%-13s %12llu %14llu %12.1fMiB %10.1fMiB %11.2fx %9.1fMiB %9.1fMiB %9.1fMiB\n",
                r.name.c_str(), static_cast<unsigned long long>(r.stats.saved_values),
                static_cast<unsigned long long>(r.stats.peak_saved_values),
                r.stats.peak_saved_bytes / 1048576.0, r.tape_bytes / 1048576.0,
                r.stats.peak_saved_bytes / r.tape_bytes, r.rss_graph, r.rss_tape,
                r.rss_graph_primal);
}

}  // namespace
}  // namespace adlang::bench

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 3;
  // The generated programs nest deeply: parsed and lowered on a large stack, as ad_bench does.
  adlang::run_on_large_stack([&] { adlang::bench::bench_main(reps); });
  return 0;
}
