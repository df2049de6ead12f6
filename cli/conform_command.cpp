// adlang conform: random programs (or a suite's cases) run by a real AD system through an
// adapter and classified against the semantics (conform/conformance.hpp, docs/conform.md).
// Exit 0 when no result disagrees where both sides are defined, 4 when one does, 2 for bad
// options or an adapter that cannot start (its message names what is missing).
//
// Also `adlang check --emit-suite DIR` (cli/checker_commands.cpp calls emit_suite_command).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "cli/conform_commands.hpp"
#include "conform/conformance.hpp"
#include "conform/suite.hpp"
#include "driver/command_runner.hpp"
#include "driver/commands.hpp"
#include "driver/program_loader.hpp"
#include "support/exit_codes.hpp"
#include "support/stack.hpp"

namespace adlang {

namespace {

struct ConformCommandOptions {
  std::string system;
  std::uint64_t count = 100;
  std::uint64_t seed = 1;
  unsigned max_size = 0;
  std::vector<std::string> properties;
  std::string suite;
  double time_limit = 10;
  bool json = false;
};

int conform_command(const ConformCommandOptions& opts, std::ostream& out, std::ostream& err) {
  conform::ConformOptions o;
  o.count = opts.count;
  o.seed = opts.seed;
  o.max_size = opts.max_size;
  if (!opts.properties.empty()) {
    o.properties.clear();
    for (const std::string& p : opts.properties)
      o.properties.push_back(p == "value" ? conform::ConformProperty::Value
                                          : conform::ConformProperty::Gradient);
  }
  conform::Adapter adapter(conform::adapter_command(opts.system), opts.time_limit);
  conform::ConformReport report;
  int code = kExitOk;
  // Evaluation and shrinking recurse deeply: run on a large stack (support/stack.hpp).
  run_on_large_stack([&] {
    try {
      if (!opts.suite.empty()) {
        report = conform::run_suite(adapter, opts.suite);
      } else {
        bool tty = !opts.json && ::isatty(2);
        report = conform::run_conformance(adapter, o, [&](std::uint64_t done, std::uint64_t all) {
          if (tty && (done % 10 == 0 || done == all))
            err << "\r" << done << "/" << all << " programs" << (done == all ? "\n" : "")
                << std::flush;
        });
      }
    } catch (const conform::AdapterUnavailable& e) {
      err << "adlang: error: " << e.what() << "\n";
      code = kExitUsage;
    } catch (const std::runtime_error& e) {
      err << "adlang: error: " << e.what() << "\n";
      code = kExitUsage;
    }
  });
  if (code != kExitOk) return code;
  if (opts.json) {
    conform::print_report_json(report, out);
  } else {
    conform::print_report(report, out);
  }
  return report.counts[static_cast<std::size_t>(conform::ConformClass::Disagree)] > 0
             ? kExitCheckFailed
             : kExitOk;
}

}  // namespace

int emit_suite_command(const CheckOptions& opts, const std::string& dir, std::ostream& out,
                       std::ostream& err) {
  conform::ConformOptions o;
  o.count = opts.count;
  o.seed = opts.seed;
  o.max_size = opts.max_size;
  if (opts.file.empty()) {
    for (std::uint64_t i = 0; i < opts.count; ++i) {
      conform::RandomCase c = conform::random_case(o, i);
      std::string name = "random-" + std::to_string(opts.seed) + "-" + std::to_string(i);
      conform::emit_case(dir, name, c.program, c.wrt, c.cotangent, o);
    }
    out << "wrote " << opts.count << " cases to " << dir << "\n";
    return kExitOk;
  }
  // One program at its --env inputs, differentiated with respect to its first input along
  // the cotangent 1 (every real of the result).
  std::shared_ptr<SourceFile> file;
  return run_guarded(false, out, err, file, [&] {
    CommonOptions common;
    common.file = opts.file;
    common.env = opts.env;
    std::unique_ptr<LoadedProgram<double>> p = load_program<double>(common, file);
    checker::Program program;
    program.term = p->term;
    for (const ProgramInput<double>& in : p->inputs) {
      checker::Input input{in.name, in.type, {}};
      for (double x : in.value)
        input.scalars.push_back(ScalarTraits<double>::to_text(x));
      program.inputs.push_back(input);
    }
    std::optional<std::size_t> wrt;
    if (!program.inputs.empty()) wrt = 0;
    std::vector<std::string> ones(program.term.type().size(), "1");
    std::string stem = std::filesystem::path(opts.file).stem().string();
    std::string name = stem;
    for (int n = 2; std::filesystem::exists(std::filesystem::path(dir) / name); ++n)
      name = stem + "-" + std::to_string(n);
    conform::emit_case(dir, name, program, wrt, ones, o);
    out << "wrote " << (std::filesystem::path(dir) / name).string() << "\n";
    return int(kExitOk);
  });
}

void register_conform_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ConformCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "conform",
      "run random programs (or a suite) on a real AD system through an adapter and classify "
      "each result against the semantics");
  cmd->add_option("--system", opts->system,
                  "torch (PyTorch), python (plain Python, its own derivative code), or the "
                  "command of an adapter (docs/conform.md)")
      ->required();
  cmd->add_option("--count", opts->count, "random programs")->capture_default_str();
  cmd->add_option("--seed", opts->seed, "the seed; a run is deterministic for a seed")
      ->capture_default_str();
  cmd->add_option("--max-size", opts->max_size,
                  "the largest program size (default: the checker's)");
  cmd->add_option("--property", opts->properties,
                  "compare only this (repeatable): value (the program's value) or gradient "
                  "(its gradient along a random cotangent)")
      ->check(CLI::IsMember({"value", "gradient"}));
  cmd->add_option("--suite", opts->suite,
                  "run a conformance suite's cases (adlang check --emit-suite) instead");
  cmd->add_option("--time-limit", opts->time_limit,
                  "seconds the system may take per program before it counts as a hang")
      ->capture_default_str();
  cmd->add_flag("--json", opts->json, "machine-readable output");
  cmd->callback([opts, &exit_code] { exit_code = conform_command(*opts, std::cout, std::cerr); });
}

}  // namespace adlang
