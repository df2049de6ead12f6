// One session of `adlang repl` as text: a Session (driver/session.hpp) whose results are
// printed on the REPL's streams, as the CLI prints them (standard output, then diagnostics).
// The line reader (cli/repl_command.cpp) feeds it inputs; tests feed it directly or through the
// binary.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>

#include "driver/session.hpp"

namespace adlang {

class ReplSession {
 public:
  ReplSession(std::ostream& out, std::ostream& err, std::string source_name = "<repl>")
      : out_(out), err_(err), session_(std::move(source_name)) {}

  // Runs one complete input (Session::handle), prints what it printed, and returns its exit
  // code. `line` is the session's number of the input's first line (from 1).
  int handle(const std::string& input, std::uint32_t line = 1);

  static bool needs_more(const std::string& text) { return Session::needs_more(text); }
  bool quit_requested() const { return session_.quit_requested(); }
  static const char* help_text() { return Session::help_text(); }

  std::string snapshot() const { return session_.snapshot(); }
  void restore(const std::string& snapshot) { session_.restore(snapshot); }

 private:
  std::ostream& out_;
  std::ostream& err_;
  Session session_;
};

}  // namespace adlang
