// adlang fmt: the program printed back after a front-end step (comments are not kept):
//   parse    the surface syntax as written, abbreviations kept (re-parseable); a .py file
//            as the program it lowers to;
//   desugar  the core IR the type checker elaborates it to: tuple lets, grad, fd, 0_T, +_T and
//            infix operators expanded as Sec. 2 of the paper defines them (re-parseable);
//   resolve  the core IR with each function's id (lang/resolve.hpp): f#3 (not re-parseable).
#include <unordered_set>

#include "driver/command_runner.hpp"
#include "driver/commands.hpp"
#include "driver/program_loader.hpp"
#include "lang/pragma.hpp"
#include "lang/printer.hpp"
#include "lang/python/lower/python_lowering.hpp"
#include "lang/type_checker.hpp"
#include "support/exit_codes.hpp"

namespace adlang {

std::optional<FmtStep> parse_fmt_step(const std::string& s) {
  if (s == "parse") return FmtStep::Parse;
  if (s == "desugar") return FmtStep::Desugar;
  if (s == "resolve") return FmtStep::Resolve;
  return std::nullopt;
}

namespace {

// The lines before a .py program's printed lowering: the pragma that makes adlang take the
// predicates the script runs under (lang/pragma.hpp), so that the printed program, run with the
// inputs the lowering's comments list, gives the script's value (docs/python.md).
std::string python_header(const std::string& path) {
  return predicates_pragma_line("total") + "-- " + path +
         " runs under total predicates (TensorFlow's and Python's comparisons); the\n"
         "-- pragma above makes adlang take them for this program too (--predicates overrides "
         "it)\n";
}

}  // namespace

int fmt_command(const FmtOptions& opts, std::ostream& out, std::ostream& err) {
  std::shared_ptr<SourceFile> file;
  return run_guarded(false, out, err, file, [&] {
    file = read_source(opts.file);
    ParsedFile parsed = parse_file(*file);
    const SyntaxProgram& syntax = parsed.syntax;
    if (py::is_python_path(opts.file)) out << python_header(opts.file);
    if (opts.after == FmtStep::Parse) {
      if (!opts.env.empty()) {
        throw CommandFailure(kExitUsage,
                             "adlang: error: --env types inputs for --after desugar or resolve; "
                             "the parsed program has no types\n");
      }
      // A .py file prints as the program it lowers to, so a reader sees what the Python means.
      out << (parsed.lowered_text.empty() ? print_syntax_program(syntax) : parsed.lowered_text);
      return int(kExitOk);
    }
    // The inputs' types come from their --env values; an input without one is a real.
    CommonOptions common;
    common.file = opts.file;
    common.env = opts.env;
    std::unordered_set<std::string> given;
    for (const std::string& binding : opts.env)
      given.insert(binding.substr(0, binding.find('=')));
    for (const Name& x : program_inputs(syntax))
      if (!given.count(x.str())) common.env.push_back(x.str() + "=0");
    std::unique_ptr<LoadedProgram<double>> p = load_program<double>(common, file);
    out << print_program(
        p->term, opts.after == FmtStep::Resolve ? PrintStyle::Resolved : PrintStyle::Concrete);
    return int(kExitOk);
  });
}

}  // namespace adlang
