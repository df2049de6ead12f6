// The front half of every command: read the file, parse, read the --env inputs in the chosen
// precision, type-check. Failures become CommandFailure with the exit code and the rendered
// message (docs/design.md Sec. 8).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/command_options.hpp"
#include "lang/diagnostics.hpp"
#include "lang/python/lower/python_kind.hpp"
#include "lang/source.hpp"
#include "lang/syntax.hpp"
#include "lang/term.hpp"
#include "semantics/environment.hpp"
#include "semantics/value.hpp"

namespace adlang {

// A failure of a command found before it evaluates (usage or compile error, by `code`), with the
// rendered message; from a diagnostic, also its bare message and location.
class CommandFailure : public std::exception {
 public:
  CommandFailure(int code, std::string message) : code_(code), message_(std::move(message)) {}
  CommandFailure(int code, const Diagnostic& d, const SourceFile* file)
      : code_(code), message_(render(d, file)), summary_(d.message), loc_(d.loc) {}
  int code() const { return code_; }
  const std::string& message() const { return message_; }
  const char* what() const noexcept override { return message_.c_str(); }
  // The diagnostic's own message and location, when the failure came from one.
  const std::optional<std::string>& summary() const { return summary_; }
  SourceLoc loc() const { return loc_; }

 private:
  int code_;
  std::string message_;
  std::optional<std::string> summary_;
  SourceLoc loc_;
};

// The text of `path`; CommandFailure (usage) if it cannot be read.
std::shared_ptr<SourceFile> read_source(const std::string& path);

template <class S>
struct ProgramInput {
  Name name;
  Type type;
  Value<S> value;
};

template <class S>
struct LoadedProgram {
  std::shared_ptr<SourceFile> file;
  SyntaxProgram syntax;
  std::vector<ProgramInput<S>> inputs;
  Term term;  // the elaborated, type-checked program
  NameSupply names;
  // A .py script's tf.device blocks as --place options (the default placement).
  std::vector<std::string> default_place;
  // .py files: the kind of the printed value, for `run` to print it as Python's print does.
  std::optional<py::PrintedKind> python_printed;

  // rho: the inputs bound to their values.
  ValueEnv<S> input_env() const {
    ValueEnv<S> rho;
    for (const ProgramInput<S>& in : inputs)
      rho.push(in.name, in.value);
    return rho;
  }
};

// Parses and type-checks `opts.file` with the --env inputs read in precision S, and checks
// that the precision supports the program (exact mode: the polynomial fragment). Sets `file`
// as soon as it is read, so that later errors can show source lines.
template <class S>
std::unique_ptr<LoadedProgram<S>> load_program(const CommonOptions& opts,
                                               std::shared_ptr<SourceFile>& file);

// In exact mode, refuses programs outside the polynomial fragment (with the location).
void check_precision_supports(const Term& program, Precision p, const SourceFile& file);

// A program as read from its file: a .ad program, or a .py program lowered (docs/python.md),
// with the inputs the script's own feed_dict gives (the defaults when --env does not).
struct ParsedFile {
  SyntaxProgram syntax;
  std::vector<std::pair<std::string, std::string>> default_env;  // NAME, VALUE
  std::string lowered_text;  // .py files: the lowered program as `adlang fmt` prints it
  // .py files: the script's tf.device blocks as placement options (FUNCTION:LINE=RANK), the
  // defaults of the partitioned graph's --place.
  std::vector<std::string> default_place;
  std::optional<py::PrintedKind> python_printed;  // .py files: the printed value's kind
};

// For `run` of a .py program, before it runs: refuses (CommandFailure, exit 3, located) a
// program whose printed value's kind is an int on one path and a float on another.
template <class S>
void check_printable(const LoadedProgram<S>& p);

// The value of the program as `run` prints it: for a .py program what Python's print shows
// (docs/python.md, "What run prints": 2.0, 75025, True, (1, 2.0)); else print_value.
template <class S>
std::string print_result(const LoadedProgram<S>& p, const Value<S>& v);

// Parses (or, for a .py file, lowers) the file; CommandFailure with exit 3 on an error.
ParsedFile parse_file(const SourceFile& file);

}  // namespace adlang
