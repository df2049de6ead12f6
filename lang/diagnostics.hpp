// User diagnostics (docs/style.md item 8, first channel): a location, a message, notes saying how
// to fix it, rendered like a compiler's: `file.ad:3:14: error: ...`, the source line, a caret.
// Internal invariant failures are a separate channel: internal_check() below.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "lang/source.hpp"

namespace adlang {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;
  std::vector<std::string> notes;
};

// A source line longer than this is shown clipped to this many bytes around the caret, with
// "..." where a part is left out: a generated program on one line of 10^6 characters gets a
// readable diagnostic, not the whole line.
inline constexpr std::size_t kLongSourceLine = 200;

// The part of a source line shown under a diagnostic: bytes [begin, end), whole UTF-8
// characters, with the caret's byte `caret` inside (or at `end` when it is past the line).
struct SourceExcerpt {
  std::size_t begin, end;
  bool clipped_before, clipped_after;
};
SourceExcerpt excerpt_around(std::string_view line, std::size_t caret);

// Renders `d` for a human. With a source file the line and a caret under the column follow;
// `path` is used when there is no file (e.g. "<env>" for a command-line value).
std::string render(const Diagnostic& d, const SourceFile* file, const std::string& path = "");

// A syntax or type error in a program (exit code 3).
class CompileError : public std::runtime_error {
 public:
  explicit CompileError(Diagnostic d) : std::runtime_error(d.message), diag_(std::move(d)) {}
  CompileError(SourceLoc loc, std::string message, std::vector<std::string> notes = {})
      : CompileError(Diagnostic{Severity::Error, loc, std::move(message), std::move(notes)}) {}
  const Diagnostic& diagnostic() const { return diag_; }

 private:
  Diagnostic diag_;
};

// A broken internal invariant: a bug in adlang, never a user error.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// Throws InternalError("internal error: " + what).
[[noreturn]] [[gnu::cold]] void internal_failure(const char* what);

// Throws InternalError with `what` when `ok` is false. The failure path is out of line, so
// that a check costs a compare and a branch where it is inlined (the graph executor's loop).
inline void internal_check(bool ok, const char* what) {
  if (__builtin_expect(!ok, 0)) internal_failure(what);
}

}  // namespace adlang
