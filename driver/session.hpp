// A session of the language: the definitions, inputs and settings that later inputs see, and
// what one action on them gives, as data (driver/command_result.hpp): the exit code and the
// kind of failure, the value, the trace and the derivative when asked, the diagnostic, the
// pictures as bytes, and the text the CLI prints for the same work. The REPL
// (driver/repl_session.hpp), the Jupyter kernel (cli/kernel_session.hpp) and the playground
// (web/playground.cpp) are front ends over it (docs/design.md Sec. 2).
//
// Every action runs through the same command functions as the CLI (driver/commands.hpp) on a
// program made of the session's definitions followed by the input, so diagnostics, values and
// exit codes are the CLI's. A failed action never ends the session and leaves it as it was.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "driver/command_options.hpp"
#include "driver/command_result.hpp"
#include "lang/name.hpp"
#include "lang/source.hpp"
#include "lang/syntax.hpp"
#include "lang/term.hpp"

namespace adlang {

// One command function (driver/commands.hpp) on a whole program, outside any session (the
// playground's runs): its result, with the text it printed.
template <class Options>
CommandResult run_captured(int (*command)(const Options&, std::ostream&, std::ostream&,
                                          CommandResult*),
                           const Options& opts) {
  std::ostringstream out, err;
  CommandResult r;
  const int code = command(opts, out, err, &r);
  r.settle(code, out.str(), err.str());
  return r;
}

class Session {
 public:
  // `source_name` names the inputs in diagnostics (`<repl>:LINE:COL`; the Jupyter kernel's
  // cells are `In[N]`).
  explicit Session(std::string source_name = "<repl>") : source_name_(std::move(source_name)) {}

  // One complete input of the REPL: a `def`, an expression (its value, as `adlang run`), or a
  // `:command` (:help lists them). `line` is the session's number of the input's first line
  // (from 1), which diagnostics name. The exit code is the one the same work would give as an
  // `adlang` command (0 ok, 1 undefined, 2 usage, 3 syntax/type error, 4 check failed).
  CommandResult handle(const std::string& input, std::uint32_t line = 1);

  // The trace of `expr` drawn as SVG, with each node's value and, when `wrt` is not empty, its
  // adjoint for that input: the trace's pages are the result's pictures.
  CommandResult trace_picture(const std::string& expr, std::uint32_t line, const std::string& wrt);

  // `expr` as a function of the input `wrt` on [from, to], its derivative by rd and central
  // differences (adlang plot): the chart as an SVG picture; the samples' table as the text
  // printed when `table`, else only the lines saying where the term is undefined.
  CommandResult plot(const std::string& expr, std::uint32_t line, const std::string& wrt,
                     double from, double to, bool table);

  // `adlang check --count N`: the paper's theorems on `count` random programs, under the
  // session's settings.
  CommandResult check_random(std::uint64_t count);

  // A usage error of a front end's own syntax (a notebook's magic), said as the session says
  // its own: `<source>: error: MESSAGE`.
  CommandResult usage_error(const std::string& message) const;

  // True if `text` is the beginning of a definition whose terminating ';' has not come yet
  // (the reader then asks for another line).
  static bool needs_more(const std::string& text);

  // True after :quit.
  bool quit_requested() const { return quit_; }

  // The text of :help.
  static const char* help_text();

  // The name diagnostics give the inputs from now on.
  void set_source_name(std::string name) { source_name_ = std::move(name); }

  // The session's state (definitions, inputs, settings) as text, and back: the Jupyter kernel
  // and the terminal's REPL evaluate an input in a child process and take the state it left.
  std::string snapshot() const;
  void restore(const std::string& snapshot);

 private:
  // A definition as the session holds it: checked once, when it was typed or loaded, and used
  // as checked by every later program (lang/type_checker.hpp's check_program_in).
  struct Def {
    std::string name;               // its (first) function's name, which a later def replaces
    std::vector<SyntaxDef> syntax;  // as parsed, at its lines of the session's text
    std::vector<FunDef> checked;    // type-checked and desugared (ids unresolved)
    std::string text;               // `def f(x: T): U = M;` as typed, for :defs and snapshots
    std::string origin;  // where it was typed or loaded from: the session's name or a file
    std::uint32_t line;  // the line of `origin` it starts on, which diagnostics name
  };
  struct Input {
    std::string name;
    std::string value;  // as written after `:env NAME=`
  };
  // One action under way: what it prints, and what it records.
  struct Action {
    std::ostringstream out, err;
    CommandResult result;
  };

  std::string source_name_;
  std::vector<Def> defs_;
  // The session's text: every definition typed or loaded, each on lines of its own, which the
  // checked definitions' locations point into; `pieces_` name the origin of each.
  std::string text_;
  std::uint32_t text_lines_ = 0;
  std::vector<SourcePiece> pieces_;
  NameSupply names_;  // the supply that checked the definitions
  std::vector<Input> inputs_;
  Precision precision_ = Precision::Double;
  PredicateMode predicates_ = PredicateMode::Strict;
  bool predicates_set_ = false;  // by :set predicates (else a Python :load chooses total)
  AdMode ad_ = AdMode::Tape;
  std::optional<std::uint64_t> fuel_;  // :set fuel; default: default_fuel(precision_)
  bool quit_ = false;
  std::uint32_t input_line_ = 1;  // the session's line number of the input being handled

  // The result of `a` with its printed text, once `code` is its exit code.
  static CommandResult finish(Action& a, int code);
  // The session's own usage error: printed, recorded, and its exit code.
  int usage(Action& a, const std::string& message) const;

  int command(Action& a, const std::string& name, const std::string& arg);
  // Adds or replaces the definition `text`, which starts at `line` of `origin`.
  int define(Action& a, const std::string& text, const std::string& origin, std::uint32_t line);
  int load(Action& a, const std::string& path);
  int set(Action& a, const std::string& arg);
  int set_input(Action& a, const std::string& arg);

  // The session's program around `expr` (its definitions, settings and the inputs `expr`
  // uses): fills `opts` and returns 0, or reports an input without a value and returns its
  // exit code. `supplied` names an input the caller gives values to itself (a plot's x axis).
  int program_options(Action& a, const std::string& expr, CommonOptions& opts,
                      const std::string& supplied = "") const;
  // The session's text followed by `main`: its diagnostics name each definition's own line,
  // and main's line in the session (input_line_), as GHCi's <interactive>:LINE:COL.
  std::shared_ptr<SourceFile> program_file(const std::string& main) const;
  // Appends `text` (from `line` of `origin`) to the session's text; its first line there.
  std::uint32_t append_text(const std::string& text, const std::string& origin, std::uint32_t line);
  // Every checked function of the definitions but `except` (an index of defs_, or none).
  std::vector<FunDef> checked_functions(
      std::size_t except = std::numeric_limits<std::size_t>::max()) const;
  CommonOptions base_options() const;
};

}  // namespace adlang
