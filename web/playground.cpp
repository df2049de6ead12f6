#include "web/playground.hpp"

#include <memory>
#include <sstream>
#include <vector>

#include "checker/property_registry.hpp"
#include "driver/commands.hpp"
#include "driver/session.hpp"
#include "lang/source.hpp"
#include "support/exit_codes.hpp"
#include "support/setting_hint.hpp"

namespace adlang {

namespace {

// The non-blank lines of the page's --env box, without surrounding spaces.
std::vector<std::string> env_bindings(const std::string& text) {
  std::vector<std::string> env;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos) continue;
    std::size_t e = line.find_last_not_of(" \t\r");
    env.push_back(line.substr(b, e - b + 1));
  }
  return env;
}

// The page's usage error, said as the CLI says it.
PlaygroundResult playground_usage(const std::string& message) {
  PlaygroundResult r;
  r.err = "adlang: error: " + message + "\n";
  r.exit_code = exit_code_of(ErrorKind::Usage);
  r.error = error_name(ErrorKind::Usage);
  return r;
}

PlaygroundResult bad_precision(const std::string& precision) {
  return playground_usage("--precision: expected double, 50, 100 or exact, got '" + precision +
                          "'");
}

// What the page shows of a command's result: the text the CLI prints, its exit code and the
// name of its failure.
PlaygroundResult shown(const CommandResult& c) {
  return PlaygroundResult{c.out, c.err, c.exit_code, error_name(c.error)};
}

}  // namespace

PlaygroundResult run_playground(const PlaygroundRequest& q) {
  set_front_end(FrontEnd::Playground);  // hints name the page's settings, not the CLI's flags
  std::optional<Precision> p = parse_precision(q.precision);
  if (!p) return bad_precision(q.precision);
  auto fill = [&](CommonOptions& o) {
    o.file = "playground.ad";
    o.source = std::make_shared<SourceFile>(o.file, q.source);
    o.env = env_bindings(q.env);
    o.precision = *p;
    if (q.fuel >= 0) o.fuel = static_cast<std::uint64_t>(q.fuel);
  };
  std::optional<std::string> dir;
  if (!q.dir.empty()) dir = q.dir;
  if (q.command == "run") {
    RunCommandOptions o;
    fill(o);
    return shown(run_captured<RunCommandOptions>(run_command, o));
  }
  if (q.command == "trace" || q.command == "trace-dot") {
    TraceOptions o;
    fill(o);
    if (q.command == "trace-dot") {
      o.format = "dot";
      if (!q.wrt.empty()) o.wrt = q.wrt;
      o.dir = dir;
    }
    return shown(run_captured(trace_command, o));
  }
  if (q.command == "diff") {
    DiffOptions o;
    fill(o);
    o.wrt = q.wrt;
    o.dir = dir;
    return shown(run_captured(diff_command, o));
  }
  if (q.command == "den") {
    DenOptions o;
    fill(o);
    return shown(run_captured(den_command, o));
  }
  if (q.command == "plot") {
    PlotOptions o;
    fill(o);
    o.wrt = q.wrt;
    o.from = q.from;
    o.to = q.to;
    o.samples = q.samples;
    return shown(run_captured(plot_command, o));
  }
  return playground_usage("the playground has no command '" + q.command + "'");
}

PlaygroundResult check_playground(const PlaygroundCheck& check,
                                  const checker::ProgressFn& progress) {
  set_front_end(FrontEnd::Playground);
  std::optional<Precision> p = parse_precision(check.precision);
  if (!p) return bad_precision(check.precision);
  CheckOptions o;
  if (!check.property.empty()) o.properties.push_back(check.property);
  o.count = check.count;
  o.seed = check.seed;
  o.precision = *p;
  o.progress = false;
  if (check.editor) {
    o.file = "playground.ad";
    o.source = std::make_shared<SourceFile>(o.file, check.source);
    o.env = env_bindings(check.env);
  }
  o.on_progress = progress;
  return shown(run_captured(check_command, o));
}

double playground_default_fuel(const std::string& precision) {
  std::optional<Precision> p = parse_precision(precision);
  return p ? static_cast<double>(default_fuel(*p)) : -1;
}

std::string playground_properties() {
  std::string names;
  for (const PropertyInfo& p : all_properties())
    names += std::string(p.name) + "\n";
  return names;
}

}  // namespace adlang
