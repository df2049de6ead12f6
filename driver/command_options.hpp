// Options of the `adlang` subcommands, filled in by the front ends (the CLI's flags in cli/,
// the REPL, the kernel, the playground) and read by the command functions (driver/commands.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/derivation_format.hpp"
#include "lang/printer.hpp"
#include "lang/source.hpp"
#include "lang/term.hpp"
#include "semantics/eval_context.hpp"
#include "semantics/graph/lower.hpp"
#include "semantics/scalar.hpp"

namespace adlang {

// The default R step budgets: the paper's R needs ~2^n steps for n nested lets, so its budget
// stops runaway nesting early (250,000 steps and the evaluation of their output take about 3 s
// here: docs/robustness.md); the linear R's work is linear in the trace, and its budget is a
// memory guard.
inline constexpr std::uint64_t kPaperDerivativeSteps = 250'000;
inline constexpr std::uint64_t kLinearDerivativeSteps = 200'000'000;

// The fuel (function calls allowed) when --fuel is not given: EvalOptions's 10^7 calls in
// double precision, fewer where each call costs more (MPFR's 50 and 100 digits, exact
// rationals), so that an endless recursion is reported after about the same time at every
// precision (docs/cli.md, with the measured costs). Defined in driver/command_runner.cpp.
std::uint64_t default_fuel(Precision p);

// Definitions checked before the program, in whose scope it is checked (a session's,
// driver/session.hpp; lang/type_checker.hpp's check_program_in). Their text comes first in the
// program's `source`, for diagnostics, and the program's own text starts at byte
// `program_offset` of it, on line `program_line`.
struct DefinitionScope {
  std::vector<FunDef> defs;  // checked, desugared, ids unresolved
  NameSupply names;          // the supply that checked them: their names are taken
  std::size_t program_offset = 0;
  std::uint32_t program_line = 1;
};

struct CommonOptions {
  std::string file;
  // The program text when it does not come from `file` (the REPL); `file` is then unused.
  std::shared_ptr<SourceFile> source;
  // The definitions the program sees besides its own (the session's), if any.
  std::shared_ptr<const DefinitionScope> scope;
  std::vector<std::string> env;  // NAME=VALUE
  Precision precision = Precision::Double;
  PredicateMode predicates = PredicateMode::Strict;
  std::optional<std::uint64_t> fuel;  // --fuel; default: default_fuel(precision)
  std::optional<std::uint64_t> unfold;
  std::uint64_t max_trace = EvalOptions{}.max_trace_nodes;
  std::uint64_t max_rd_nesting = EvalOptions{}.max_rd_nesting;
  std::uint64_t max_rd_trace = EvalOptions{}.max_rd_trace_nodes;
  std::optional<std::uint64_t> max_derivative_steps;  // default: by `ad`, as above
  AdMode ad = AdMode::Tape;
  bool json = false;
  // --derivation (run, trace): print the derivation of the judgement instead of the result.
  std::optional<DerivationView> derivation;
  std::uint64_t max_judgements = 2'000'000;  // recorded at most (--derivation-max-judgements)
};

// The default trace budget of the commands that print the trace (trace, diff): printing costs
// several microseconds per trace step, so a trace of 500,000 steps prints in about 4 s here
// (docs/robustness.md). `run` keeps EvalOptions' budget: it evaluates traces, it does not print
// them.
inline constexpr std::uint64_t kPrintedTraceSteps = 500'000;

// The front-end steps `adlang fmt --after` prints the program after.
enum class FmtStep { Parse, Desugar, Resolve };

struct FmtOptions {
  std::string file;
  FmtStep after = FmtStep::Parse;
  std::vector<std::string> env;  // NAME=VALUE: the inputs' types (after desugar or resolve)
};

// --predicates: "strict" or "total" as given; not given (empty), a .py program runs under
// TensorFlow's and Python's total comparisons (docs/python.md) and a .ad program under the
// paper's strict ones, unless a pragma line of the program chooses (lang/pragma.hpp).
// Defined in driver/program_loader.cpp, which reads the program.
PredicateMode predicate_mode(const std::string& given, const std::string& file);

// adlang run: which semantics evaluates the program (--engine) and the tagged graph's options.
enum class RunEngine {
  Compiled,      // the compiled evaluator (the default)
  Reference,     // the reference evaluator (a walk over the term, rule by rule)
  Graph,         // the tagged static dataflow graph (semantics/graph)
  GraphDynamic,  // the graph with TensorFlow's dynamic calls (a body copy per call)
};

struct RunCommandOptions : CommonOptions {
  RunEngine engine = RunEngine::Compiled;
  unsigned threads = 1;                  // --threads (graph engines)
  std::uint64_t max_frames = 4'000'000;  // --max-frames (graph engines)
  bool stats = false;                    // --stats (graph engines): counts on stderr
  bool propagate_dead = false;           // --deadness propagate (graph engines)
  // --rd graph|calls|host (graph engines): reverse mode in the graph (inlined where it can be),
  // through call sites only, or the host-side Rd node.
  graph::RdLowering rd = graph::RdLowering::Adjoint;
  // --partitions N (graph engine): the partitioned graph (docs/graph-partition.md), in this
  // process or one partition per MPI process under mpirun; 0: not partitioned.
  std::uint32_t partitions = 0;
  std::vector<std::string> place;  // --place FUNCTION=RANK | FUNCTION:LINE=RANK
  double progress_timeout = 30;    // --progress-timeout SECONDS (under mpirun)
};

struct GraphCommandOptions {
  std::string file;
  std::string format = "dot";  // dot, svg, png
  std::string output;          // -o; standard output for dot when empty
  bool stats = false;          // also run the program and report execution counts
  std::vector<std::string> env;
  std::uint64_t fuel = EvalOptions{}.fuel;
  std::uint64_t max_frames = 4'000'000;
  PredicateMode predicates = PredicateMode::Strict;
  bool propagate_dead = false;
  graph::RdLowering rd = graph::RdLowering::Adjoint;  // --rd graph|calls|host
  std::uint32_t partitions = 0;                       // --partitions N: draw the partitioned graph
  std::vector<std::string> place;                     // --place
};

struct TraceOptions : CommonOptions {
  TraceOptions() { max_trace = kPrintedTraceSteps; }
  PrintStyle style = PrintStyle::Concrete;
  std::string format = "text";     // text, or a picture of the trace: dot, svg, png
  std::string output;              // -o: the picture's file (dot: standard output if empty)
  std::optional<std::string> wrt;  // pictures: also each node's adjoint for this input
  std::optional<std::string> dir;  // the cotangent (default 1 for a real result)
  // pictures: the page of a long trace to draw (from 1); 0: every page, page k > 1 into the
  // output's name with -k before its extension (t.svg, t-2.svg, ...)
  std::size_t page = 0;
};

// adlang plot: the program as a function of one input, its derivative by rd and central
// differences.
struct PlotOptions : CommonOptions {
  std::string wrt;
  double from = -1, to = 1;
  std::size_t samples = 201;
  std::string output;  // .svg or .png; empty: print the samples only
  // The chart as an SVG into CommandResult::pictures instead of a file (the notebook).
  bool picture_in_result = false;
  // The samples' table on the output (else only the lines saying where the term is undefined).
  bool print_samples = true;
};

struct DiffOptions : CommonOptions {
  DiffOptions() { max_trace = kPrintedTraceSteps; }
  std::string wrt;
  std::optional<std::string> dir;  // the cotangent; defaults to 1 for a real result
  PrintStyle style = PrintStyle::Concrete;
};

}  // namespace adlang
