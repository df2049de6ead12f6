// One session of `adlang repl`: the definitions, inputs and settings that later lines see, and
// the meaning of one complete input (a `def`, an expression, or a `:command`). The line reader
// (cli/repl_command.cpp) feeds it inputs; tests feed it directly or through the binary.
//
// Every input runs through the same command functions as the CLI (driver/commands.hpp) on a
// program made of the session's definitions followed by the input, so diagnostics, values and
// exit codes are the CLI's. An error never ends the session and leaves it as it was.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "driver/command_options.hpp"
#include "lang/source.hpp"

namespace adlang {

class ReplSession {
 public:
  // `source_name` names the inputs in diagnostics (`<repl>:LINE:COL`; the Jupyter kernel's
  // cells are `In[N]`).
  ReplSession(std::ostream& out, std::ostream& err, std::string source_name = "<repl>")
      : out_(out), err_(err), source_name_(std::move(source_name)) {}

  // Runs one complete input and returns the exit code the same work would give as an `adlang`
  // command (0 ok, 1 undefined, 2 usage, 3 syntax/type error, 4 check failed). `line` is the
  // session's number of the input's first line (from 1), which diagnostics name.
  int handle(const std::string& input, std::uint32_t line = 1);

  // True if `text` is the beginning of a definition whose terminating ';' has not come yet
  // (the reader then asks for another line).
  static bool needs_more(const std::string& text);

  // True after :quit.
  bool quit_requested() const { return quit_; }

  // The text of :help.
  static const char* help_text();

  // The name diagnostics give the inputs from now on.
  void set_source_name(std::string name) { source_name_ = std::move(name); }

  // The session's program around `expr` (its definitions, settings and the inputs `expr`
  // uses): fills `opts` and returns 0, or reports an input without a value and returns the
  // usage exit code. The kernel's magics build their commands' options with it; `supplied`
  // names an input the caller gives values to itself (a plot's x axis).
  int program_options(const std::string& expr, CommonOptions& opts,
                      const std::string& supplied = "") const;

  // The session's state (definitions, inputs, settings) as text, and back: the Jupyter kernel
  // evaluates a cell in a child process and takes the state the cell left from it.
  std::string snapshot() const;
  void restore(const std::string& snapshot);

 private:
  struct Def {
    std::string name;
    std::string text;    // `def f(x: T): U = M;`
    std::string origin;  // where it was typed or loaded from: the session's name or a file
    std::uint32_t line;  // the line of `origin` it starts on, which diagnostics name
  };
  struct Input {
    std::string name;
    std::string value;  // as written after `:env NAME=`
  };

  std::ostream& out_;
  std::ostream& err_;
  std::string source_name_;
  std::vector<Def> defs_;
  std::vector<Input> inputs_;
  Precision precision_ = Precision::Double;
  PredicateMode predicates_ = PredicateMode::Strict;
  bool predicates_set_ = false;  // by :set predicates (else a Python :load chooses total)
  AdMode ad_ = AdMode::Tape;
  std::optional<std::uint64_t> fuel_;  // :set fuel; default: default_fuel(precision_)
  bool quit_ = false;
  std::uint32_t input_line_ = 1;  // the session's line number of the input being handled

  int command(const std::string& name, const std::string& arg);
  // Adds or replaces the definition `text`, which starts at `line` of `origin`.
  int define(const std::string& text, const std::string& origin, std::uint32_t line);
  int load(const std::string& path);
  int set(const std::string& arg);
  int set_input(const std::string& arg);
  int check(const std::string& expr);

  // The program of the definitions followed by `main`: its diagnostics name each definition's
  // own line, and main's line in the session (input_line_), as GHCi's <interactive>:LINE:COL.
  std::shared_ptr<SourceFile> program_file(const std::vector<Def>& defs,
                                           const std::string& main) const;
  CommonOptions base_options() const;
};

}  // namespace adlang
