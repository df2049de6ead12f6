// What a command computed, as data, beside the text it prints (driver/commands.hpp): the value
// and its type, the trace and the derivative when the command makes them, the failure with its
// kind and diagnostic, and the pictures as bytes. The commands fill it when given one; the
// session (driver/session.hpp) adds the printed text and hands it to the REPL, the Jupyter
// kernel and the playground.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "driver/error_kind.hpp"
#include "lang/source.hpp"

namespace adlang {

// A picture made in memory: "svg" or "png", and its bytes (the SVG's text).
struct Picture {
  std::string format;
  std::string bytes;
  std::string description;  // what it shows, in words (a notebook's text/plain)
};

// The diagnostic of a failure: its message (without location or notes), where it points when
// known (the name and line the program's text gives it: a file, `<repl>` or `In[N]`), and the
// text the CLI prints for it.
struct CommandDiagnostic {
  std::string message;
  std::optional<std::string> origin;  // with `line` and `col`, when the location is known
  std::uint32_t line = 0, col = 0;
  std::string rendered;
};

struct CommandResult {
  int exit_code = kExitOk;
  ErrorKind error = ErrorKind::None;
  std::optional<CommandDiagnostic> diagnostic;  // the failure's, when it has one
  std::optional<std::string> value;             // the result as `run` prints it
  std::optional<std::string> type;              // the result's type
  std::optional<std::string> trace;             // the trace term (trace, diff)
  std::optional<std::string> derivative;        // W.R_V(x:T. C) (diff)
  std::vector<Picture> pictures;
  // What the CLI prints for the same work on standard output and on standard error (the
  // session fills these; a command writes its streams itself).
  std::string out, err;

  bool ok() const { return error == ErrorKind::None; }
  // Records a failure: its kind, its exit code, and its diagnostic.
  void fail(ErrorKind kind, CommandDiagnostic d) {
    error = kind;
    exit_code = exit_code_of(kind);
    diagnostic = std::move(d);
  }
  // A failure whose diagnostic has no location.
  void fail(ErrorKind kind, std::string message, std::string rendered) {
    fail(kind, CommandDiagnostic{std::move(message), std::nullopt, 0, 0, std::move(rendered)});
  }
  // Completes the result of work that returned `code` and printed `printed_out` and
  // `printed_err`. The exit code and the kind of failure were decided together where the
  // failure was caught; work whose code disagrees with the failure it recorded is a bug of
  // ours, recorded as one.
  void settle(int code, std::string printed_out, std::string printed_err) {
    out = std::move(printed_out);
    err = std::move(printed_err);
    if (exit_code_of(error) != code) {
      const std::string message = "internal error: the exit code " + std::to_string(code) +
                                  " disagrees with the failure recorded (" + json_kind(error) + ")";
      fail(ErrorKind::Internal, message, "adlang: " + message + "\n");
      err += diagnostic->rendered;
    }
    exit_code = exit_code_of(error);
  }
};

}  // namespace adlang
