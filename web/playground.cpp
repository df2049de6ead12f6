#include "web/playground.hpp"

#include <memory>
#include <sstream>
#include <vector>

#include "cli/checker_commands.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "lang/source.hpp"

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

}  // namespace

PlaygroundResult run_playground(const std::string& command, const std::string& source,
                                const std::string& env, const std::string& precision,
                                const std::string& wrt) {
  PlaygroundResult r;
  std::ostringstream out, err;
  std::optional<Precision> p = parse_precision(precision);
  if (!p) {
    r.err =
        "adlang: error: --precision: expected double, 50, 100 or exact, got '" + precision + "'\n";
    r.exit_code = kExitUsage;
    return r;
  }
  auto fill = [&](CommonOptions& o) {
    o.file = "playground.ad";
    o.source = std::make_shared<SourceFile>(o.file, source);
    o.env = env_bindings(env);
    o.precision = *p;
  };
  if (command == "run") {
    RunCommandOptions o;
    fill(o);
    r.exit_code = run_command(o, out, err);
  } else if (command == "trace" || command == "trace-dot") {
    TraceOptions o;
    fill(o);
    if (command == "trace-dot") {
      o.format = "dot";
      if (!wrt.empty()) o.wrt = wrt;
    }
    r.exit_code = trace_command(o, out, err);
  } else if (command == "diff") {
    DiffOptions o;
    fill(o);
    o.wrt = wrt;
    r.exit_code = diff_command(o, out, err);
  } else if (command == "den") {
    DenOptions o;
    fill(o);
    r.exit_code = den_command(o, out, err);
  } else {
    err << "adlang: error: the playground has no command '" << command << "'\n";
    r.exit_code = kExitUsage;
  }
  r.out = out.str();
  r.err += err.str();
  return r;
}

}  // namespace adlang
