// adlang repl: the line reader around ReplSession (cli/repl_session.hpp). On a terminal it
// reads with libedit (line editing, history recall with the arrow keys); otherwise standard
// input runs as a script, without prompts, so the REPL works in pipelines and tests.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

// libedit's readline interface (Debian: libedit-dev).
#include <editline/readline.h>

#include "cli/exit_codes.hpp"
#include "cli/repl_command.hpp"
#include "cli/repl_session.hpp"

namespace adlang {

namespace {

constexpr const char* kPrompt = "adlang> ";
constexpr const char* kMorePrompt = "   ...> ";

// One line from the terminal, or nullopt at end of input. The line goes into the history.
bool read_terminal_line(const char* prompt, std::string& line) {
  char* raw = readline(prompt);
  if (!raw) return false;
  line = raw;
  std::free(raw);
  return true;
}

}  // namespace

int repl_command(std::istream& in, std::ostream& out, std::ostream& err) {
  ReplSession session(out, err);
  const bool terminal = isatty(STDIN_FILENO) && &in == &std::cin;
  if (terminal) {
    using_history();
    stifle_history(1000);
    out << "adlang repl: :help lists the commands, :quit or Ctrl-D leaves\n" << std::flush;
  }
  int first_failure = kExitOk;
  std::string input, line;
  std::uint32_t line_number = 0, input_first_line = 1;
  while (!session.quit_requested()) {
    bool got;
    if (terminal) {
      got = read_terminal_line(input.empty() ? kPrompt : kMorePrompt, line);
    } else {
      got = static_cast<bool>(std::getline(in, line));
    }
    if (!got) {
      if (terminal) out << "\n";
      break;
    }
    ++line_number;
    if (input.empty()) input_first_line = line_number;
    input += (input.empty() ? "" : "\n") + line;
    if (ReplSession::needs_more(input)) continue;
    if (terminal && !input.empty()) add_history(input.c_str());
    int code = session.handle(input, input_first_line);
    out << std::flush;
    err << std::flush;
    if (code != kExitOk && first_failure == kExitOk) first_failure = code;
    input.clear();
  }
  if (!input.empty()) {  // a definition cut off by the end of input
    int code = session.handle(input, input_first_line);
    if (code != kExitOk && first_failure == kExitOk) first_failure = code;
  }
  if (terminal) clear_history();
  // On a terminal, errors were seen as they happened; a script reports its first failure.
  return terminal ? kExitOk : first_failure;
}

}  // namespace adlang
