#include "web/playground.hpp"

#include <memory>
#include <sstream>
#include <vector>

#include "checker/property_registry.hpp"
#include "driver/commands.hpp"
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

PlaygroundResult bad_precision(const std::string& precision) {
  PlaygroundResult r;
  r.err =
      "adlang: error: --precision: expected double, 50, 100 or exact, got '" + precision + "'\n";
  r.exit_code = kExitUsage;
  return r;
}

}  // namespace

PlaygroundResult run_playground(const PlaygroundRequest& q) {
  set_front_end(FrontEnd::Playground);  // hints name the page's settings, not the CLI's flags
  PlaygroundResult r;
  std::ostringstream out, err;
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
    r.exit_code = run_command(o, out, err);
  } else if (q.command == "trace" || q.command == "trace-dot") {
    TraceOptions o;
    fill(o);
    if (q.command == "trace-dot") {
      o.format = "dot";
      if (!q.wrt.empty()) o.wrt = q.wrt;
      o.dir = dir;
    }
    r.exit_code = trace_command(o, out, err);
  } else if (q.command == "diff") {
    DiffOptions o;
    fill(o);
    o.wrt = q.wrt;
    o.dir = dir;
    r.exit_code = diff_command(o, out, err);
  } else if (q.command == "den") {
    DenOptions o;
    fill(o);
    r.exit_code = den_command(o, out, err);
  } else if (q.command == "plot") {
    PlotOptions o;
    fill(o);
    o.wrt = q.wrt;
    o.from = q.from;
    o.to = q.to;
    o.samples = q.samples;
    r.exit_code = plot_command(o, out, err);
  } else {
    err << "adlang: error: the playground has no command '" << q.command << "'\n";
    r.exit_code = kExitUsage;
  }
  r.out = out.str();
  r.err += err.str();
  return r;
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
  std::ostringstream out, err;
  PlaygroundResult r;
  r.exit_code = check_command(o, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
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
