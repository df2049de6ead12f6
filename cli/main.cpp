// The `adlang` executable: parses flags (CLI11) and calls the command functions. Built twice:
// the lean adlang (ADLANG_LEAN) and adlang-full (cli/full_build.hpp).
#include <CLI/CLI.hpp>
#include <iostream>
#include <string_view>

#include "cli/checker_commands.hpp"
#include "cli/commands.hpp"
#include "cli/conform_commands.hpp"
#include "cli/exit_codes.hpp"
#ifdef ADLANG_LEAN
#include "cli/full_build.hpp"
#endif
#ifdef ADLANG_WITH_KERNEL
#include "cli/kernel_command.hpp"
#endif
#include "cli/pyrewrite_command.hpp"
#include "cli/repl_command.hpp"
#include "cli/resource_options.hpp"
#include "cli/serve_command.hpp"

namespace {

using namespace adlang;

// --rd graph|calls|host (CLI11 has checked the choice).
graph::RdLowering rd_lowering(const std::string& choice) {
  return choice == "host"    ? graph::RdLowering::Host
         : choice == "calls" ? graph::RdLowering::Calls
                             : graph::RdLowering::Adjoint;
}

void add_common(CLI::App& cmd, CommonOptions& o, std::string& precision, std::string& predicates,
                std::string& ad) {
  cmd.add_option("FILE", o.file, "the .ad program")->required();
  cmd.add_option("--env", o.env, "an input value, NAME=VALUE (e.g. x=0.5, v=(1, 2)); repeatable")
      ->type_name("NAME=VALUE");
  cmd.add_option("--precision", precision,
                 "scalar type: double, 50 or 100 (MPFR digits), exact (rationals; polynomial "
                 "fragment only)")
      ->check(CLI::IsMember({"double", "50", "100", "exact"}))
      ->default_str("double");
  cmd.add_option("--predicates", predicates,
                 "strict: the paper's comparisons, undefined where both sides are equal; "
                 "total: the conventional ones (default: strict for .ad, total for .py)")
      ->check(CLI::IsMember({"strict", "total"}));
  cmd.add_option("--fuel", o.fuel,
                 "function calls allowed before giving up (default 10000000 in double "
                 "precision, 2000000 at 50 and 100 digits, 1000000 in exact: calls that "
                 "cost more)")
      ->check(CLI::NonNegativeNumber);
  cmd.add_option("--unfold", o.unfold,
                 "evaluate in the limited language of Fig. 8: every letrec is letrec_N");
  cmd.add_option("--max-trace", o.max_trace, "trace steps allowed before giving up")
      ->capture_default_str();
  cmd.add_option("--max-rd-nesting", o.max_rd_nesting,
                 "rd redexes evaluated one inside another before giving up")
      ->capture_default_str();
  cmd.add_option("--max-derivative-steps", o.max_derivative_steps,
                 "steps of R allowed before giving up (default 250000 with --ad=paper, "
                 "200000000 with --ad=linear or tape)");
  cmd.add_flag("--json", o.json, "machine-readable output");
  // --ad: which differentiation computes rd redexes (ad/ad_mode.hpp).
  cmd.add_option("--ad", ad,
                 "tape: the run-time tape where it applies, else the linear R; linear: R by "
                 "reverse accumulation, linear in the trace; paper: Fig. 6 literally "
                 "(exponential under nesting)")
      ->check(CLI::IsMember({"tape", "linear", "paper"}))
      ->default_str("tape");
}

void finish_common(CommonOptions& o, const std::string& precision, const std::string& predicates,
                   const std::string& ad) {
  o.precision = parse_precision(precision).value_or(Precision::Double);
  o.ad = ad == "paper" ? AdMode::Paper : ad == "linear" ? AdMode::Linear : AdMode::Tape;
  o.predicates = predicate_mode(predicates, o.file);
}

// --derivation and its view options (run, trace).
struct DerivationFlags {
  bool on = false;
  std::string format = "text";
  DerivationView view;
};

void add_derivation(CLI::App& cmd, DerivationFlags& f, std::uint64_t& max_judgements) {
  cmd.add_flag("--derivation", f.on,
               "print the derivation of the judgement, rule by rule of Figs. 2-5, instead of "
               "the result");
  cmd.add_option("--derivation-format", f.format, "text (indented), json, or latex (mathpartir)")
      ->check(CLI::IsMember({"text", "json", "latex"}))
      ->default_str("text");
  cmd.add_option("--derivation-depth", f.view.max_depth, "premises deeper than this are elided")
      ->capture_default_str();
  cmd.add_option("--derivation-size", f.view.max_judgements,
                 "at most this many judgements are shown")
      ->capture_default_str();
  cmd.add_flag("--fold-recursion", f.view.fold_recursion,
               "show a recursive call's sub-derivation as its conclusion only");
  cmd.add_option("--derivation-max-judgements", max_judgements,
                 "judgements recorded before giving up (memory guard)")
      ->capture_default_str();
}

void finish_derivation(CommonOptions& o, DerivationFlags& f) {
  if (!f.on) return;
  f.view.format = f.format == "json"    ? DerivationFormat::Json
                  : f.format == "latex" ? DerivationFormat::Latex
                                        : DerivationFormat::Text;
  o.derivation = f.view;
}

PrintStyle parse_style(const std::string& s) {
  return s == "paper" ? PrintStyle::Paper : PrintStyle::Concrete;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef ADLANG_LEAN
  // A command that needs a library the lean adlang does not link runs in adlang-full.
  adlang::cli::hand_over_if_needed(argc, argv);
#endif
  CLI::App app{
      "adlang: the differentiable programming language of Abadi & Plotkin (POPL 2020).\n"
      "Exit codes: 0 success, 1 undefined (bottom), 2 usage, 3 syntax/type error, "
      "4 check failed, 5 internal error, 6 a partition's MPI process died."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "adlang 0.1.0");

  // The subcommands to register: every one, but in the lean adlang only the one its first
  // argument names (cli/full_build.hpp hands everything else over to adlang-full). Their
  // options are most of the lean adlang's start-up (docs/performance.md, "Start-up"); the
  // parse and its messages are the same, since CLI11 takes no other subcommand after one.
  auto wanted = [&]([[maybe_unused]] std::string_view name) {
#ifdef ADLANG_LEAN
    return argc > 1 && name == argv[1];
#else
    return true;
#endif
  };

  RunCommandOptions run_opts;
  std::string run_precision = "double", run_predicates, run_ad = "tape";
  std::string run_engine = "compiled";
  std::string run_deadness = "elide";
  std::string run_rd = "graph";
  CLI::App* run = nullptr;
  DerivationFlags run_derivation;
  if (wanted("run")) {
    run = app.add_subcommand("run", "evaluate a program (ordinary evaluation, Figs. 2-3)");
    add_common(*run, run_opts, run_precision, run_predicates, run_ad);
    run->add_option("--engine", run_engine,
                    "compiled: the compiled evaluator; reference: the term walker; graph: the "
                    "tagged static dataflow graph; graph-dynamic: the graph with a body copy per "
                    "call (TensorFlow's dynamic approach)")
        ->check(CLI::IsMember({"compiled", "reference", "graph", "graph-dynamic"}))
        ->default_str("compiled");
    run->add_option("--threads", run_opts.threads, "worker threads of the graph engines")
        ->capture_default_str();
    run->add_option("--max-frames", run_opts.max_frames,
                    "live activations (frames) the graph engines allow at once")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    run->add_option("--deadness", run_deadness,
                    "graph engines: propagate: the untaken branch receives dead tokens (the "
                    "thesis's Sec. 3.2 literally); elide: the same result without them")
        ->check(CLI::IsMember({"propagate", "elide"}))
        ->default_str("elide");
    run->add_flag("--stats", run_opts.stats,
                  "graph engines: print frames, tokens and dead tokens to standard error");
    run->add_option("--rd", run_rd,
                    "graph engines: graph: rd in reverse mode inside the graph (forward and "
                    "adjoint nodes, inlined into the rd's host where its body makes no calls); "
                    "calls: the same, always as forward and adjoint bodies entered by call sites; "
                    "host: one node evaluated by symbolic evaluation and R")
        ->check(CLI::IsMember({"graph", "calls", "host"}))
        ->default_str("graph");
    run->add_option("--partitions", run_opts.partitions,
                    "graph engine: split the graph over N partitions (thesis Sec. 5.4), run in "
                    "this process, or one per process under mpirun -n N");
    run->add_option("--place", run_opts.place,
                    "with --partitions: FUNCTION=RANK or FUNCTION:LINE=RANK (repeatable; default: "
                    "a .py script's tf.device blocks, else balanced by static cost)")
        ->type_name("SPEC");
    run->add_option("--progress-timeout", run_opts.progress_timeout,
                    "under mpirun: seconds without an answer from a partition before the job "
                    "ends with exit code 6")
        ->capture_default_str();
    add_derivation(*run, run_derivation, run_opts.max_judgements);
  }

  GraphCommandOptions graph_opts;
  std::string graph_predicates;
  std::string graph_deadness = "elide";
  std::string graph_rd = "graph";
  CLI::App* graph_cmd = nullptr;
  if (wanted("graph")) {
    graph_cmd = app.add_subcommand(
        "graph", "draw the program's tagged dataflow graph (Call/Return, Switch/Merge)");
    graph_cmd->add_option("FILE", graph_opts.file, "the program (.ad, or .py lowered)")->required();
    graph_cmd->add_option("--format", graph_opts.format, "dot, svg or png")
        ->check(CLI::IsMember({"dot", "svg", "png"}))
        ->default_str("dot");
    graph_cmd->add_option("-o,--output", graph_opts.output,
                          "the output file (standard output when omitted)");
    graph_cmd->add_flag("--stats", graph_opts.stats,
                        "print nodes by kind and call sites, and run the program once for "
                        "frames, peak live frames, tokens and dead tokens");
    graph_cmd
        ->add_option("--env", graph_opts.env,
                     "an input value, NAME=VALUE (inputs' types come from their values)")
        ->type_name("NAME=VALUE");
    graph_cmd->add_option("--fuel", graph_opts.fuel, "function calls allowed (--stats)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    graph_cmd->add_option("--max-frames", graph_opts.max_frames, "live frames allowed (--stats)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    graph_cmd->add_option("--partitions", graph_opts.partitions,
                          "draw the graph split over N partitions, with Send/Recv pairs and the "
                          "copied state machines");
    graph_cmd->add_option("--place", graph_opts.place, "with --partitions: as for run")
        ->type_name("SPEC");
    graph_cmd->add_option("--deadness", graph_deadness, "propagate or elide (--stats)")
        ->check(CLI::IsMember({"propagate", "elide"}))
        ->default_str("elide");
    graph_cmd
        ->add_option("--rd", graph_rd,
                     "graph: rd as forward and adjoint nodes (blue and red), inlined where its "
                     "body makes no calls; calls: always as bodies; host: one node")
        ->check(CLI::IsMember({"graph", "calls", "host"}))
        ->default_str("graph");
    graph_cmd
        ->add_option("--predicates", graph_predicates,
                     "strict or total (--stats; default: strict for .ad, total for .py)")
        ->check(CLI::IsMember({"strict", "total"}));
  }

  TraceOptions trace_opts;
  std::string trace_precision = "double", trace_predicates, trace_style = "concrete";
  std::string trace_ad = "tape";
  DerivationFlags trace_derivation;
  CLI::App* trace = nullptr;
  if (wanted("trace")) {
    trace = app.add_subcommand(
        "trace", "print the trace term of a program (symbolic evaluation, Figs. 4-5)");
    add_common(*trace, trace_opts, trace_precision, trace_predicates, trace_ad);
    add_derivation(*trace, trace_derivation, trace_opts.max_judgements);
    trace
        ->add_option("--style", trace_style,
                     "concrete (parses back) or paper (the paper's notation)")
        ->check(CLI::IsMember({"concrete", "paper"}))
        ->default_str("concrete");
    trace
        ->add_option("--format", trace_opts.format,
                     "text (the trace term), or the trace as a graph with each node's value: dot, "
                     "svg, png (drawn by Graphviz)")
        ->check(CLI::IsMember({"text", "dot", "svg", "png"}))
        ->default_str("text");
    trace->add_option("-o,--output", trace_opts.output,
                      "the picture's file (--format dot writes to standard output without it)");
    trace->add_option("--wrt", trace_opts.wrt,
                      "pictures: also each node's adjoint for the derivative in this input");
    trace->add_option("--dir", trace_opts.dir,
                      "pictures: the cotangent (default 1 for a real result)");
    trace
        ->add_option("--page", trace_opts.page,
                     "pictures: draw only page N of a trace too long for one (default: every "
                     "page, page k into OUT with -k before its extension)")
        ->check(CLI::PositiveNumber);
  }

  DiffOptions diff_opts;
  std::string diff_precision = "double", diff_predicates, diff_style = "concrete";
  std::string diff_ad = "tape";
  CLI::App* diff = nullptr;
  if (wanted("diff")) {
    diff = app.add_subcommand(
        "diff", "the reverse derivative of a program with respect to one input (Fig. 6)");
    add_common(*diff, diff_opts, diff_precision, diff_predicates, diff_ad);
    diff->add_option("--wrt", diff_opts.wrt, "the input to differentiate with respect to")
        ->required();
    diff->add_option("--dir", diff_opts.dir,
                     "the cotangent W (a value of the result's type; default 1 for a real result)");
    diff->add_option("--style", diff_style, "concrete or paper")
        ->check(CLI::IsMember({"concrete", "paper"}))
        ->default_str("concrete");
  }

  PlotOptions plot_opts;
  std::string plot_precision = "double", plot_predicates, plot_ad = "linear";
  CLI::App* plot = nullptr;
  if (wanted("plot")) {
    plot = app.add_subcommand(
        "plot",
        "draw the program as a function of one input, with its derivative by rd and central "
        "differences (gnuplot, with -o); prints the sampled values");
    add_common(*plot, plot_opts, plot_precision, plot_predicates, plot_ad);
    plot->add_option("--wrt", plot_opts.wrt, "the input on the x axis (a real)")->required();
    plot->add_option("--from", plot_opts.from, "the left end of the interval")
        ->capture_default_str();
    plot->add_option("--to", plot_opts.to, "the right end of the interval")->capture_default_str();
    plot->add_option("--samples", plot_opts.samples, "points sampled, both ends included")
        ->capture_default_str();
    plot->add_option("-o,--output", plot_opts.output,
                     "the chart: a .svg or .png file (without it, the samples only)");
  }

  FmtOptions fmt_opts;
  std::string fmt_after = "parse";
  CLI::App* fmt = nullptr;
  if (wanted("fmt")) {
    fmt = app.add_subcommand(
        "fmt", "print a program back after a front-end step (parse, desugar or resolve)");
    fmt->add_option("FILE", fmt_opts.file, "the .ad program")->required();
    fmt->add_option("--after", fmt_after,
                    "parse: as written; desugar: the core the sugar means; resolve: the core "
                    "with each function's id (f#3)")
        ->check(CLI::IsMember({"parse", "desugar", "resolve"}))
        ->default_str("parse");
    fmt->add_option("--env", fmt_opts.env,
                    "NAME=VALUE: an input's type, by a value of it (default: real)");
  }

  CLI::App* repl = nullptr;
  if (wanted("repl")) {
    repl = app.add_subcommand(
        "repl",
        "a read-eval-print loop: definitions, expressions, :type, :trace, :diff, :den, :check, "
        ":load, :set (:help lists them); piped standard input runs as a script");
  }

  // adlang pyrewrite (lang/python): sets its exit code when it runs.
  int pyrewrite_exit = kExitOk;
  if (wanted("pyrewrite")) adlang::cli::register_pyrewrite_command(app, pyrewrite_exit);

  // adlang den / adlang check (cli/checker_commands.hpp): set their exit code when they run.
  int checker_exit = -1;
  if (wanted("den") || wanted("check")) register_checker_commands(app, checker_exit);
  // adlang export / adlang conform (cli/conform_commands.hpp): set their exit code.
  int conform_exit = -1;
  if (wanted("export")) register_export_command(app, conform_exit);
  if (wanted("conform")) register_conform_command(app, conform_exit);

#ifdef ADLANG_WITH_KERNEL
  // adlang kernel / adlang kernel install (cli/kernel_command.hpp): set their exit code.
  int kernel_exit = -1;
  if (wanted("kernel")) register_kernel_command(app, kernel_exit);
#endif
  // adlang serve (cli/serve_command.hpp): the playground on 127.0.0.1; sets its exit code.
  int serve_exit = -1;
  if (wanted("serve")) register_serve_command(app, serve_exit);

  // The memory and time budgets of every subcommand (docs/robustness.md); only one parses.
  ResourceOptions budget;
  for (const char* name : {"run", "trace", "diff", "plot", "den", "check"})
    if (wanted(name)) add_resource_options(*app.get_subcommand(name), budget);
  for (const char* name : {"fmt", "pyrewrite"})
    if (wanted(name)) add_resource_options(*app.get_subcommand(name), budget, false);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  if (checker_exit >= 0) return checker_exit;
  if (conform_exit >= 0) return conform_exit;
#ifdef ADLANG_WITH_KERNEL
  if (kernel_exit >= 0) return kernel_exit;
#endif
  if (serve_exit >= 0) return serve_exit;
  if (run && *run) {
    finish_common(run_opts, run_precision, run_predicates, run_ad);
    run_opts.engine = run_engine == "reference"       ? RunEngine::Reference
                      : run_engine == "graph"         ? RunEngine::Graph
                      : run_engine == "graph-dynamic" ? RunEngine::GraphDynamic
                                                      : RunEngine::Compiled;
    run_opts.propagate_dead = run_deadness == "propagate";
    run_opts.rd = rd_lowering(run_rd);
    finish_derivation(run_opts, run_derivation);
    return run_command(run_opts, std::cout, std::cerr);
  }
  if (graph_cmd && *graph_cmd) {
    graph_opts.predicates = predicate_mode(graph_predicates, graph_opts.file);
    graph_opts.propagate_dead = graph_deadness == "propagate";
    graph_opts.rd = rd_lowering(graph_rd);
    return graph_command(graph_opts, std::cout, std::cerr);
  }
  if (trace && *trace) {
    finish_common(trace_opts, trace_precision, trace_predicates, trace_ad);
    finish_derivation(trace_opts, trace_derivation);
    trace_opts.style = parse_style(trace_style);
    return trace_command(trace_opts, std::cout, std::cerr);
  }
  if (diff && *diff) {
    finish_common(diff_opts, diff_precision, diff_predicates, diff_ad);
    diff_opts.style = parse_style(diff_style);
    return diff_command(diff_opts, std::cout, std::cerr);
  }
  if (plot && *plot) {
    finish_common(plot_opts, plot_precision, plot_predicates, plot_ad);
    return plot_command(plot_opts, std::cout, std::cerr);
  }
  if (repl && *repl) return repl_command(std::cin, std::cout, std::cerr);
  if (fmt && *fmt) {
    fmt_opts.after = *parse_fmt_step(fmt_after);
    return fmt_command(fmt_opts, std::cout, std::cerr);
  }
  return pyrewrite_exit;
}
