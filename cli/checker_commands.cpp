// The flags of `adlang den` and `adlang check` (CLI11; see cli/checker_commands.hpp).
#include "cli/checker_commands.hpp"
#include "cli/conform_commands.hpp"
#include "driver/commands.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

#include "checker/property_registry.hpp"
#include "conform/export_property.hpp"
#include "support/exit_codes.hpp"

namespace adlang {

void register_den_command(CLI::App& app, int& exit_code) {
  struct State {
    DenOptions opts;
    std::string precision = "double", predicates;
  };
  auto st = std::make_shared<State>();
  CLI::App* den = app.add_subcommand(
      "den", "the denotational meaning of a program (Fig. 7), computed independently of run");
  den->add_option("FILE", st->opts.file, "the .ad program")->required();
  den->add_option("--env", st->opts.env,
                  "an input value, NAME=VALUE (e.g. x=0.5, v=(1, 2)); repeatable")
      ->type_name("NAME=VALUE");
  den->add_option("--precision", st->precision,
                  "scalar type: double, 50 or 100 (MPFR digits), exact (rationals; polynomial "
                  "fragment only)")
      ->check(CLI::IsMember({"double", "50", "100", "exact"}))
      ->default_str("double");
  den->add_option("--predicates", st->predicates,
                  "strict: the paper's comparisons, undefined where both sides are equal; "
                  "total: the conventional ones (default: strict for .ad, total for .py)")
      ->check(CLI::IsMember({"strict", "total"}));
  den->add_option("--unfold", st->opts.unfold,
                  "the limited language of Fig. 8: every letrec denotes its approximant mu_N")
      ->check(CLI::Range(std::uint64_t(0), std::uint64_t(1) << 40));
  den->add_option("--max-approximant", st->opts.max_approximant,
                  "without --unfold: the largest Kleene approximant mu_n tried")
      ->capture_default_str();
  den->add_option("--fuel", st->opts.fuel,
                  "function calls allowed before giving up (default 10000000 in double "
                  "precision, 2000000 at 50 and 100 digits, 1000000 in exact: calls that "
                  "cost more)")
      ->check(CLI::NonNegativeNumber);
  st->opts.max_rd_nesting = DenotationOptions{}.max_rd_nesting;
  den->add_option("--max-rd-nesting", st->opts.max_rd_nesting,
                  "differentiation levels nested inside one another (each doubles the cost)")
      ->capture_default_str();
  den->add_flag("--json", st->opts.json, "machine-readable output");
  den->callback([st, &exit_code] {
    st->opts.precision = parse_precision(st->precision).value_or(Precision::Double);
    st->opts.predicates = predicate_mode(st->predicates, st->opts.file);
    exit_code = den_command(st->opts, std::cout, std::cerr);
  });
}

void register_check_command(CLI::App& app, int& exit_code) {
  checker::add_export_properties();  // found by name: adlang check --property export-round-trip
  struct State {
    CheckOptions opts;
    std::string precision = "double", predicates, shard = "0/1", ad = "paper";
    bool no_progress = false;
    std::string emit_suite;  // --emit-suite DIR (cli/conform_command.cpp)
  };
  auto st = std::make_shared<State>();
  const std::string names = checker::property_names();
  CLI::App* check = app.add_subcommand(
      "check",
      "check the paper's theorems on random programs: the evaluators, R and the denotation "
      "must agree");
  check
      ->add_option("--property", st->opts.properties,
                   "run only this property (repeatable): " + names)
      ->type_name("NAME");
  CLI::Option* count = check->add_option("--count", st->opts.count, "random programs per property")
                           ->capture_default_str();
  CLI::Option* seed =
      check->add_option("--seed", st->opts.seed, "the seed; a run is deterministic for a seed")
          ->capture_default_str();
  CLI::Option* max_size = check->add_option(
      "--max-size", st->opts.max_size,
      "the largest program size (default " + std::to_string(checker::kDefaultMaxSize) + ")");
  CLI::Option* shard =
      check
          ->add_option("--shard", st->shard,
                       "run only the programs i, i+N, i+2N, ... of the run (I/N, 0 <= I < N)")
          ->default_str("0/1");
  check->add_option("--precision", st->precision, "scalar type: double, 50, 100 or exact")
      ->check(CLI::IsMember({"double", "50", "100", "exact"}))
      ->default_str("double");
  CLI::Option* jobs =
      check
          ->add_option("--jobs", st->opts.jobs,
                       "threads that check programs at once (default: one per core, at most 8; "
                       "1 under mpirun); the report is the same for every number")
          ->check(CLI::Range(1u, 256u));
  // One program or random ones: the options of the one do not silently pass for the other.
  CLI::Option* file =
      check
          ->add_option("FILE", st->opts.file,
                       "a .ad or .py program to check at its inputs (--env) instead of random "
                       "programs (then --count, --seed, --max-size and --shard do not apply)")
          ->excludes(count)
          ->excludes(seed)
          ->excludes(max_size)
          ->excludes(shard)
          ->excludes(jobs);
  check
      ->add_option("--env", st->opts.env,
                   "with FILE: an input value, NAME=VALUE (e.g. x=0.5); repeatable")
      ->type_name("NAME=VALUE")
      ->needs(file);
  check
      ->add_option("--predicates", st->predicates,
                   "strict (the paper's; every property must hold) or total (the conventional "
                   "comparisons; shows where they disagree with the mathematics); default: "
                   "strict, total for a .py FILE")
      ->check(CLI::IsMember({"strict", "total"}));
  check
      ->add_option("--ad", st->ad,
                   "which R the properties differentiate traces with: paper (Fig. 6, whose "
                   "theorems they state) or linear (reverse accumulation); the linear-r-* "
                   "properties compare the two whatever this says")
      ->check(CLI::IsMember({"paper", "linear"}))
      ->default_str("paper");
  check->add_flag("--json", st->opts.json, "machine-readable output");
  check->add_flag("--no-progress", st->no_progress, "no progress line on stderr");
  check->add_flag("--list", st->opts.list, "list the properties and exit");
  check
      ->add_option("--emit-suite", st->emit_suite,
                   "write a conformance suite to DIR instead (docs/conform.md): the random "
                   "programs of --count and --seed, or FILE at its --env inputs")
      ->type_name("DIR");
  check->callback([st, &exit_code] {
    CheckOptions& o = st->opts;
    o.precision = parse_precision(st->precision).value_or(Precision::Double);
    o.predicates = predicate_mode(st->predicates, o.file);
    o.progress = !st->no_progress;
    o.linear_r = st->ad == "linear";
    unsigned i = 0, n = 0;
    char slash = 0;
    std::istringstream in(st->shard);
    if (!(in >> i >> slash >> n) || slash != '/' || n == 0 || i >= n || !in.eof()) {
      std::cerr << "adlang: error: --shard expects I/N with 0 <= I < N, got '" << st->shard
                << "'\n";
      exit_code = kExitUsage;
      return;
    }
    o.shard_index = i;
    o.shard_count = n;
    if (!st->emit_suite.empty()) {
      exit_code = emit_suite_command(o, st->emit_suite, std::cout, std::cerr);
      return;
    }
    exit_code = check_command(o, std::cout, std::cerr);
  });
}

}  // namespace adlang
