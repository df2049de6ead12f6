// The flags of the subcommands over one program — run, graph, trace, diff, plot, fmt — and of the
// REPL (cli/subcommands.hpp lists them); each calls its command function of the driver
// (driver/commands.hpp) when it runs, during app.parse().
#include "cli/language_commands.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/repl_command.hpp"
#include "driver/commands.hpp"

namespace adlang {

namespace {

// --rd graph|calls|host (CLI11 has checked the choice).
graph::RdLowering rd_lowering(const std::string& choice) {
  return choice == "host"    ? graph::RdLowering::Host
         : choice == "calls" ? graph::RdLowering::Calls
                             : graph::RdLowering::Adjoint;
}

// The flags every command over one program has (CommonOptions), as text until the command runs.
struct CommonFlags {
  std::string precision = "double", predicates, ad = "tape";
};

void add_common(CLI::App& cmd, CommonOptions& o, CommonFlags& f) {
  cmd.add_option("FILE", o.file, "the .ad program")->required();
  cmd.add_option("--env", o.env, "an input value, NAME=VALUE (e.g. x=0.5, v=(1, 2)); repeatable")
      ->type_name("NAME=VALUE");
  cmd.add_option("--precision", f.precision,
                 "scalar type: double, 50 or 100 (MPFR digits), exact (rationals; polynomial "
                 "fragment only)")
      ->check(CLI::IsMember({"double", "50", "100", "exact"}))
      ->default_str("double");
  cmd.add_option("--predicates", f.predicates,
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
  cmd.add_option("--max-rd-trace", o.max_rd_trace,
                 "trace steps allowed for one rd redex (with the rds inside it) before giving "
                 "up")
      ->capture_default_str();
  cmd.add_option("--max-derivative-steps", o.max_derivative_steps,
                 "steps of R allowed before giving up (default 250000 with --ad=paper, "
                 "200000000 with --ad=linear or tape)");
  cmd.add_flag("--json", o.json, "machine-readable output");
  // --ad: which differentiation computes rd redexes (ad/ad_mode.hpp).
  cmd.add_option("--ad", f.ad,
                 "tape: the run-time tape where it applies, else the linear R; linear: R by "
                 "reverse accumulation, linear in the trace; paper: Fig. 6 literally "
                 "(exponential under nesting)")
      ->check(CLI::IsMember({"tape", "linear", "paper"}))
      ->default_str(f.ad);
}

void finish_common(CommonOptions& o, const CommonFlags& f) {
  o.precision = parse_precision(f.precision).value_or(Precision::Double);
  o.ad = f.ad == "paper" ? AdMode::Paper : f.ad == "linear" ? AdMode::Linear : AdMode::Tape;
  o.predicates = predicate_mode(f.predicates, o.file);
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

void register_run_command(CLI::App& app, int& exit_code) {
  struct State {
    RunCommandOptions opts;
    CommonFlags common;
    std::string engine = "compiled", deadness = "elide", rd = "graph";
    DerivationFlags derivation;
  };
  auto st = std::make_shared<State>();
  CLI::App* run = app.add_subcommand("run", "evaluate a program (ordinary evaluation, Figs. 2-3)");
  add_common(*run, st->opts, st->common);
  run->add_option("--engine", st->engine,
                  "compiled: the compiled evaluator; reference: the term walker; graph: the "
                  "tagged static dataflow graph; graph-dynamic: the graph with a body copy per "
                  "call (TensorFlow's dynamic approach)")
      ->check(CLI::IsMember({"compiled", "reference", "graph", "graph-dynamic"}))
      ->default_str("compiled");
  run->add_option("--threads", st->opts.threads, "worker threads of the graph engines")
      ->capture_default_str();
  run->add_option("--max-frames", st->opts.max_frames,
                  "live activations (frames) the graph engines allow at once")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  run->add_option("--deadness", st->deadness,
                  "graph engines: propagate: the untaken branch receives dead tokens (the "
                  "thesis's Sec. 3.2 literally); elide: the same result without them")
      ->check(CLI::IsMember({"propagate", "elide"}))
      ->default_str("elide");
  run->add_flag("--stats", st->opts.stats,
                "graph engines: print frames, tokens and dead tokens to standard error");
  run->add_option("--rd", st->rd,
                  "graph engines: graph: rd in reverse mode inside the graph (forward and "
                  "adjoint nodes, inlined into the rd's host where its body makes no calls); "
                  "calls: the same, always as forward and adjoint bodies entered by call sites; "
                  "host: one node evaluated by symbolic evaluation and R")
      ->check(CLI::IsMember({"graph", "calls", "host"}))
      ->default_str("graph");
  run->add_option("--partitions", st->opts.partitions,
                  "graph engine: split the graph over N partitions (thesis Sec. 5.4), run in "
                  "this process, or one per process under mpirun -n N");
  run->add_option("--place", st->opts.place,
                  "with --partitions: FUNCTION=RANK or FUNCTION:LINE=RANK (repeatable; default: "
                  "a .py script's tf.device blocks, else balanced by static cost)")
      ->type_name("SPEC");
  run->add_option("--progress-timeout", st->opts.progress_timeout,
                  "under mpirun: seconds without an answer from a partition before the job "
                  "ends with exit code 6")
      ->capture_default_str();
  add_derivation(*run, st->derivation, st->opts.max_judgements);
  run->callback([st, &exit_code] {
    RunCommandOptions& o = st->opts;
    finish_common(o, st->common);
    o.engine = st->engine == "reference"       ? RunEngine::Reference
               : st->engine == "graph"         ? RunEngine::Graph
               : st->engine == "graph-dynamic" ? RunEngine::GraphDynamic
                                               : RunEngine::Compiled;
    o.propagate_dead = st->deadness == "propagate";
    o.rd = rd_lowering(st->rd);
    finish_derivation(o, st->derivation);
    exit_code = run_command(o, std::cout, std::cerr);
  });
}

void register_graph_command(CLI::App& app, int& exit_code) {
  struct State {
    GraphCommandOptions opts;
    std::string predicates, deadness = "elide", rd = "graph";
  };
  auto st = std::make_shared<State>();
  GraphCommandOptions& o = st->opts;
  CLI::App* graph_cmd = app.add_subcommand(
      "graph", "draw the program's tagged dataflow graph (Call/Return, Switch/Merge)");
  graph_cmd->add_option("FILE", o.file, "the program (.ad, or .py lowered)")->required();
  graph_cmd->add_option("--format", o.format, "dot, svg or png")
      ->check(CLI::IsMember({"dot", "svg", "png"}))
      ->default_str("dot");
  graph_cmd->add_option("-o,--output", o.output, "the output file (standard output when omitted)");
  graph_cmd->add_flag("--stats", o.stats,
                      "print nodes by kind and call sites, and run the program once for "
                      "frames, peak live frames, tokens and dead tokens");
  graph_cmd
      ->add_option("--env", o.env,
                   "an input value, NAME=VALUE (inputs' types come from their values)")
      ->type_name("NAME=VALUE");
  graph_cmd->add_option("--fuel", o.fuel, "function calls allowed (--stats)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  graph_cmd->add_option("--max-frames", o.max_frames, "live frames allowed (--stats)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  graph_cmd->add_option("--partitions", o.partitions,
                        "draw the graph split over N partitions, with Send/Recv pairs and the "
                        "copied state machines");
  graph_cmd->add_option("--place", o.place, "with --partitions: as for run")->type_name("SPEC");
  graph_cmd->add_option("--deadness", st->deadness, "propagate or elide (--stats)")
      ->check(CLI::IsMember({"propagate", "elide"}))
      ->default_str("elide");
  graph_cmd
      ->add_option("--rd", st->rd,
                   "graph: rd as forward and adjoint nodes (blue and red), inlined where its "
                   "body makes no calls; calls: always as bodies; host: one node")
      ->check(CLI::IsMember({"graph", "calls", "host"}))
      ->default_str("graph");
  graph_cmd
      ->add_option("--predicates", st->predicates,
                   "strict or total (--stats; default: strict for .ad, total for .py)")
      ->check(CLI::IsMember({"strict", "total"}));
  graph_cmd->callback([st, &exit_code] {
    st->opts.predicates = predicate_mode(st->predicates, st->opts.file);
    st->opts.propagate_dead = st->deadness == "propagate";
    st->opts.rd = rd_lowering(st->rd);
    exit_code = graph_command(st->opts, std::cout, std::cerr);
  });
}

void register_trace_command(CLI::App& app, int& exit_code) {
  struct State {
    TraceOptions opts;
    CommonFlags common;
    std::string style = "concrete";
    DerivationFlags derivation;
  };
  auto st = std::make_shared<State>();
  TraceOptions& o = st->opts;
  CLI::App* trace = app.add_subcommand(
      "trace", "print the trace term of a program (symbolic evaluation, Figs. 4-5)");
  add_common(*trace, o, st->common);
  add_derivation(*trace, st->derivation, o.max_judgements);
  trace->add_option("--style", st->style, "concrete (parses back) or paper (the paper's notation)")
      ->check(CLI::IsMember({"concrete", "paper"}))
      ->default_str("concrete");
  trace
      ->add_option("--format", o.format,
                   "text (the trace term), or the trace as a graph with each node's value: dot, "
                   "svg, png (drawn by Graphviz)")
      ->check(CLI::IsMember({"text", "dot", "svg", "png"}))
      ->default_str("text");
  trace->add_option("-o,--output", o.output,
                    "the picture's file (--format dot writes to standard output without it)");
  trace->add_option("--wrt", o.wrt,
                    "pictures: also each node's adjoint for the derivative in this input");
  trace->add_option("--dir", o.dir, "pictures: the cotangent (default 1 for a real result)");
  trace
      ->add_option("--page", o.page,
                   "pictures: draw only page N of a trace too long for one (default: every "
                   "page, page k into OUT with -k before its extension)")
      ->check(CLI::PositiveNumber);
  trace->callback([st, &exit_code] {
    finish_common(st->opts, st->common);
    finish_derivation(st->opts, st->derivation);
    st->opts.style = parse_style(st->style);
    exit_code = trace_command(st->opts, std::cout, std::cerr);
  });
}

void register_diff_command(CLI::App& app, int& exit_code) {
  struct State {
    DiffOptions opts;
    CommonFlags common;
    std::string style = "concrete";
  };
  auto st = std::make_shared<State>();
  CLI::App* diff = app.add_subcommand(
      "diff", "the reverse derivative of a program with respect to one input (Fig. 6)");
  add_common(*diff, st->opts, st->common);
  diff->add_option("--wrt", st->opts.wrt, "the input to differentiate with respect to")->required();
  diff->add_option("--dir", st->opts.dir,
                   "the cotangent W (a value of the result's type; default 1 for a real result)");
  diff->add_option("--style", st->style, "concrete or paper")
      ->check(CLI::IsMember({"concrete", "paper"}))
      ->default_str("concrete");
  diff->callback([st, &exit_code] {
    finish_common(st->opts, st->common);
    st->opts.style = parse_style(st->style);
    exit_code = diff_command(st->opts, std::cout, std::cerr);
  });
}

void register_plot_command(CLI::App& app, int& exit_code) {
  struct State {
    PlotOptions opts;
    CommonFlags common{"double", "", "linear"};
  };
  auto st = std::make_shared<State>();
  PlotOptions& o = st->opts;
  CLI::App* plot = app.add_subcommand(
      "plot",
      "draw the program as a function of one input, with its derivative by rd and central "
      "differences (gnuplot, with -o); prints the sampled values");
  add_common(*plot, o, st->common);
  plot->add_option("--wrt", o.wrt, "the input on the x axis (a real)")->required();
  plot->add_option("--from", o.from, "the left end of the interval")->capture_default_str();
  plot->add_option("--to", o.to, "the right end of the interval")->capture_default_str();
  plot->add_option("--samples", o.samples, "points sampled, both ends included")
      ->capture_default_str();
  plot->add_option("-o,--output", o.output,
                   "the chart: a .svg or .png file (without it, the samples only)");
  plot->callback([st, &exit_code] {
    finish_common(st->opts, st->common);
    exit_code = plot_command(st->opts, std::cout, std::cerr);
  });
}

void register_fmt_command(CLI::App& app, int& exit_code) {
  struct State {
    FmtOptions opts;
    std::string after = "parse";
  };
  auto st = std::make_shared<State>();
  CLI::App* fmt = app.add_subcommand(
      "fmt", "print a program back after a front-end step (parse, desugar or resolve)");
  fmt->add_option("FILE", st->opts.file, "the .ad program")->required();
  fmt->add_option("--after", st->after,
                  "parse: as written; desugar: the core the sugar means; resolve: the core "
                  "with each function's id (f#3)")
      ->check(CLI::IsMember({"parse", "desugar", "resolve"}))
      ->default_str("parse");
  fmt->add_option("--env", st->opts.env,
                  "NAME=VALUE: an input's type, by a value of it (default: real)");
  fmt->callback([st, &exit_code] {
    st->opts.after = *parse_fmt_step(st->after);
    exit_code = fmt_command(st->opts, std::cout, std::cerr);
  });
}

void register_repl_command(CLI::App& app, int& exit_code) {
  CLI::App* repl = app.add_subcommand(
      "repl",
      "a read-eval-print loop: definitions, expressions, :type, :trace, :diff, :den, :check, "
      ":load, :set (:help lists them); piped standard input runs as a script");
  repl->callback([&exit_code] { exit_code = repl_command(std::cin, std::cout, std::cerr); });
}

}  // namespace adlang
