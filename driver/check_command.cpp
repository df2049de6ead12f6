// adlang check: the paper's theorems as properties over random programs (checker/).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <thread>

#include "checker/check_ranks.hpp"
#include "checker/runner.hpp"
#include "checker/term_edit.hpp"
#include "driver/command_runner.hpp"
#include "driver/commands.hpp"
#include "driver/json.hpp"
#include "driver/program_loader.hpp"
#include "support/exit_codes.hpp"
#include "support/resource_budget.hpp"
#include "support/stack.hpp"

namespace adlang {

namespace {

std::string pad(const std::string& s, std::size_t w) {
  return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' ');
}

std::string rpad(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}

std::string indent(const std::string& text, const std::string& by) {
  std::string out = by;
  for (char c : text) {
    out += c;
    if (c == '\n') out += by;
  }
  while (!out.empty() && (out.back() == ' '))
    out.pop_back();
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

std::string reproduce_line(const CheckOptions& o, const RenderedCounterexample& c) {
  std::string s = "adlang check --property " + c.property + " --seed " + std::to_string(c.seed) +
                  " --count " + std::to_string(c.index + 1);
  if (o.max_size) s += " --max-size " + std::to_string(o.max_size);
  if (o.precision != Precision::Double) s += std::string(" --precision ") + to_string(o.precision);
  if (o.predicates == PredicateMode::Total) s += " --predicates total";
  if (o.linear_r) s += " --ad linear";
  if (c.index > 0) s += " --shard " + std::to_string(c.index) + "/" + std::to_string(c.index + 1);
  return s;
}

}  // namespace

int check_one_program(const CommonOptions& opts, const std::vector<std::string>& properties,
                      bool linear_r, std::ostream& out, std::ostream& err, CommandResult* result) {
  std::vector<PropertyInfo> chosen;
  for (const std::string& name : properties) {
    const PropertyInfo* p = checker::find_property(name);
    if (!p) {
      const std::string message = "unknown property '" + name + "'";
      const std::string text = "adlang: error: " + message + "\nnote: the properties are " +
                               checker::property_names() + "\n";
      err << text;
      if (result) result->fail(ErrorKind::Usage, message, text);
      return kExitUsage;
    }
    chosen.push_back(*p);
  }
  if (chosen.empty()) chosen = all_properties();
  std::shared_ptr<SourceFile> file;
  return run_guarded(
      false, out, err, file,
      [&] {
        auto p = load_program<double>(opts, file);
        checker::Program program;
        program.term = p->term;
        for (const ProgramInput<double>& in : p->inputs) {
          checker::Input ci{in.name, in.type, {}};
          for (double v : in.value)
            ci.scalars.push_back(ScalarTraits<double>::to_text(v));
          program.inputs.push_back(std::move(ci));
        }
        checker::CheckConfig config;
        config.precision = opts.precision;
        config.predicates = opts.predicates;
        config.den_predicates = opts.predicates;
        config.linear_r = linear_r;
        int code = kExitOk;
        for (const PropertyInfo& prop : chosen) {
          checker::Outcome o = checker::run_property(prop, program, config, 1);
          const char* verdict = "pass";
          switch (o.verdict) {
            case checker::Verdict::Pass:
              break;
            case checker::Verdict::Fail:
              verdict = "FAIL";
              code = kExitCheckFailed;
              if (result && result->ok())
                result->fail(ErrorKind::CheckFailed,
                             prop.name + std::string(" failed: ") + o.detail, "");
              break;
            case checker::Verdict::BothUndefined:
              verdict = "both undefined";
              break;
            case checker::Verdict::Discard:
              verdict = "not applicable";
              break;
          }
          out << pad(prop.name, 22) << verdict;
          if (!o.detail.empty()) out << ": " << o.detail;
          out << "\n";
        }
        return code;
      },
      result);
}

int check_command(const CheckOptions& opts, std::ostream& out, std::ostream& err,
                  CommandResult* result) {
  if (!opts.file.empty() && !opts.list) {
    CommonOptions c;
    c.file = opts.file;
    c.source = opts.source;
    c.env = opts.env;
    c.precision = opts.precision;
    c.predicates = opts.predicates;
    return check_one_program(c, opts.properties, opts.linear_r, out, err, result);
  }
  if (opts.list) {
    // The registry (checker/property_registry.hpp): name, family, source, what it checks, and
    // the programs it is checked on.
    // The properties run only when named follow, with "run only when named" in their row.
    out << pad("property", 22) << pad("family", 12) << pad("paper", 26) << "checks\n";
    std::vector<const PropertyInfo*> listed;
    for (const PropertyInfo& p : all_properties())
      listed.push_back(&p);
    const std::vector<const PropertyInfo*> on_request = checker::on_request_properties();
    listed.insert(listed.end(), on_request.begin(), on_request.end());
    for (std::size_t i = 0; i < listed.size(); ++i) {
      const PropertyInfo& p = *listed[i];
      out << pad(p.name, 22) << pad(p.family, 12) << pad(p.paper, 26) << p.summary << "\n"
          << std::string(60, ' ')
          << "on: " << checker::describe(checker::generator_config(p, opts.max_size))
          << (i >= listed.size() - on_request.size() ? "; run only when named (--property)" : "")
          << "\n";
    }
    return kExitOk;
  }
  checker::RunOptions ro;
  ro.properties = opts.properties;
  ro.count = opts.count;
  ro.seed = opts.seed;
  ro.max_size = opts.max_size;
  // Under mpirun, rank r of N runs the shard r/N of the shard asked for (checker/check_ranks.hpp).
  const CheckRanks ranks = check_ranks();
  ro.shard_index = opts.shard_index + opts.shard_count * unsigned(ranks.rank);
  ro.shard_count = opts.shard_count * unsigned(ranks.size);
  // Unless asked, a thread per core (at most 8; docs/checker.md, "--jobs"), and one under
  // mpirun, where each rank is a process of its own.
  ro.jobs = opts.jobs != 0   ? opts.jobs
            : ranks.size > 1 ? 1u
                             : std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  checker::CheckConfig config;
  config.precision = opts.precision;
  config.predicates = opts.predicates;
  config.den_predicates = opts.predicates;
  config.linear_r = opts.linear_r;

  // Where the progress goes: opts.on_progress, or a line on a terminal; told at most every
  // 200 ms, and at the end of each property.
  bool tty = opts.progress && ranks.rank == 0 && isatty(STDERR_FILENO);
  checker::ProgressFn sink = opts.on_progress;
  if (tty && !sink) {
    sink = [&](const checker::PropertySummary& so_far, std::uint64_t total) {
      err << "\r\033[K" << so_far.name << ": " << so_far.tried << "/" << total << std::flush;
      if (so_far.tried == total) err << "\r\033[K" << std::flush;
    };
  }
  auto last = std::chrono::steady_clock::now();
  checker::ProgressFn progress;
  if (sink) {
    progress = [&](const checker::PropertySummary& so_far, std::uint64_t total) {
      auto now = std::chrono::steady_clock::now();
      if (so_far.tried != total && now - last < std::chrono::milliseconds(200)) return;
      last = now;
      sink(so_far, total);
    };
  }
  checker::RunReport report;
  int code = kExitOk;
  try {
    report = checker::run_checks(ro, config, progress);
  } catch (const std::invalid_argument& e) {
    const std::string text = std::string("adlang: error: ") + e.what() +
                             "\nnote: the properties are " + checker::property_names() + "\n";
    err << text;
    if (result) result->fail(ErrorKind::Usage, e.what(), text);
    return abort_ranks(ranks, kExitUsage);
  } catch (const BudgetExceeded& e) {
    const std::string message = std::string("undefined: ") + e.what();
    std::string text = "adlang: error: " + message + "\n";
    for (const std::string& n : e.notes())
      text += "note: " + n + "\n";
    err << text;
    if (result) result->fail(ErrorKind::Resources, message, text);
    return abort_ranks(ranks, kExitUndefined);
  } catch (const std::exception& e) {
    const std::string message = std::string("internal error: ") + e.what();
    err << "adlang: " << message << "\n";
    if (result) result->fail(ErrorKind::Internal, message, "adlang: " + message + "\n");
    return abort_ranks(ranks, kExitInternalError);
  }
  std::vector<RenderedCounterexample> counterexamples;
  for (const auto& c : report.counterexamples)
    counterexamples.push_back(render(c));
  merge_ranks(ranks, report.properties, counterexamples);
  if (ranks.rank != 0) return kExitOk;  // rank 0 prints the merged report
  if (!counterexamples.empty()) code = kExitCheckFailed;
  const bool passed = counterexamples.empty();
  if (!passed && result) {
    const RenderedCounterexample& c = counterexamples.front();
    result->fail(ErrorKind::CheckFailed,
                 c.property + " failed on program " + std::to_string(c.index) + " of seed " +
                     std::to_string(c.seed) + ": " + c.detail,
                 "");
  }

  if (opts.json) {
    out << "{\"seed\": " << opts.seed << ", \"count\": " << opts.count << ", \"shard\": \""
        << opts.shard_index << "/" << opts.shard_count
        << "\", \"precision\": " << json::quote(to_string(opts.precision)) << ", \"predicates\": "
        << json::quote(opts.predicates == PredicateMode::Total ? "total" : "strict")
        << ", \"ad\": " << json::quote(opts.linear_r ? "linear" : "paper")
        << ", \"passed\": " << (passed ? "true" : "false") << ", \"properties\": [";
    for (std::size_t i = 0; i < report.properties.size(); ++i) {
      const auto& p = report.properties[i];
      out << (i ? ", " : "") << "{\"name\": " << json::quote(p.name) << ", \"tried\": " << p.tried
          << ", \"passed\": " << p.passed << ", \"failed\": " << p.failed
          << ", \"both_undefined\": " << p.both_undefined << ", \"discarded\": " << p.discarded
          << ", \"seconds\": " << p.seconds << "}";
    }
    out << "], \"counterexamples\": [";
    for (std::size_t i = 0; i < counterexamples.size(); ++i) {
      const auto& c = counterexamples[i];
      out << (i ? ", " : "") << "{\"property\": " << json::quote(c.property)
          << ", \"seed\": " << c.seed << ", \"index\": " << c.index
          << ", \"program\": " << json::quote(c.program) << ", \"nodes\": " << c.nodes
          << ", \"env\": " << json::quote(c.env) << ", \"detail\": " << json::quote(c.detail)
          << ", \"reproduce\": " << json::quote(reproduce_line(opts, c)) << "}";
    }
    out << "]}\n";
    return code;
  }

  out << pad("property", 22) << rpad("tried", 8) << rpad("passed", 8) << rpad("failed", 8)
      << rpad("both-undef", 12) << rpad("discarded", 11) << rpad("prog/s", 9) << "\n";
  for (const auto& p : report.properties) {
    std::ostringstream rate;
    rate << std::fixed << std::setprecision(0) << (p.seconds > 0 ? p.tried / p.seconds : 0.0);
    out << pad(p.name, 22) << rpad(std::to_string(p.tried), 8) << rpad(std::to_string(p.passed), 8)
        << rpad(std::to_string(p.failed), 8) << rpad(std::to_string(p.both_undefined), 12)
        << rpad(std::to_string(p.discarded), 11) << rpad(rate.str(), 9) << "\n";
  }
  for (const auto& c : counterexamples) {
    out << "\nFAILED " << c.property << " (program " << c.index << " of seed " << c.seed
        << "; shrunk in " << c.shrink_steps << " steps to " << c.nodes << " nodes):\n";
    out << indent(c.program, "    ");
    out << "  differing results:\n" << indent(c.detail, "    ");
    out << "  reproduce: " << reproduce_line(opts, c) << "\n";
  }
  out << (passed ? "all properties passed\n" : "some properties FAILED\n");
  return code;
}

}  // namespace adlang
