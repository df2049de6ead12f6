// adlang repl: the line reader around ReplSession (driver/repl_session.hpp). On a terminal it
// reads with libedit (line editing, history recall with the arrow keys, Ctrl-L clears the
// screen) and evaluates each input in a child process that Ctrl-C ends (cli/repl_child.hpp):
// Ctrl-C prints "Interrupted" and the session goes on, with all its definitions. Otherwise
// standard input runs as a script, without prompts, so the REPL works in pipelines and tests;
// there an interrupt ends the script, as in any pipeline.
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

// libedit's readline interface (Debian: libedit-dev).
#include <editline/readline.h>

#include "cli/repl_child.hpp"
#include "cli/repl_command.hpp"
#include "driver/repl_session.hpp"
#include "support/exit_codes.hpp"
#include "support/setting_hint.hpp"

namespace adlang {

namespace {

constexpr const char* kPrompt = "adlang> ";
constexpr const char* kMorePrompt = "   ...> ";

enum class Read { Line, Interrupted, End };

// The line editor's input, a byte at a time, that gives up (end of input) once an interrupt has
// come: a SIGINT that arrives while the editor is not blocked in read() (redrawing the line,
// say) interrupts no system call, and the editor would otherwise wait for the next key. The
// poll's timeout bounds how long an interrupt can go unseen.
int getc_unless_interrupted(FILE* stream) {
  const int fd = fileno(stream);
  for (;;) {
    if (interrupt_pending()) return EOF;
    pollfd p{fd, POLLIN, 0};
    int ready = poll(&p, 1, 50);
    if (ready < 0 && errno != EINTR) return EOF;
    if (ready <= 0) continue;
    unsigned char c = 0;
    ssize_t n = read(fd, &c, 1);
    if (n == 1) return c;
    if (n == 0 || errno != EINTR) return EOF;
  }
}

// One line from the terminal: Interrupted when Ctrl-C ends the line, End at end of input.
Read read_terminal_line(const char* prompt, std::string& line) {
  take_interrupt();  // one that came after the last evaluation ended belongs to none
  char* raw = readline(prompt);
  if (take_interrupt()) {  // what was typed of the line is dropped
    std::free(raw);
    return Read::Interrupted;
  }
  if (!raw) return Read::End;
  line = raw;
  std::free(raw);
  return Read::Line;
}

}  // namespace

int repl_command(std::istream& in, std::ostream& out, std::ostream& err) {
  ReplSession session(out, err);
  const bool terminal = isatty(STDIN_FILENO) && &in == &std::cin;
  set_front_end(FrontEnd::Repl);  // hints name :set fuel N, not --fuel N
  if (terminal) {
    // SIGINT is the REPL's own (libedit's handler would end the process after restoring the
    // terminal): at the prompt it ends the line being typed, during an evaluation the child.
    rl_catch_signals = 0;
    rl_getc_function = getc_unless_interrupted;
    catch_interrupts();
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
      Read r = read_terminal_line(input.empty() ? kPrompt : kMorePrompt, line);
      if (r == Read::Interrupted) {  // the line, and a definition being typed, are dropped
        out << "^C\nInterrupted\n" << std::flush;
        input.clear();
        continue;
      }
      got = r == Read::Line;
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
    int code = kExitOk;
    if (terminal) {
      std::optional<int> done = handle_in_child(session, input, input_first_line);
      if (!done) out << "Interrupted\n";
      code = done.value_or(kExitOk);
    } else {
      code = session.handle(input, input_first_line);
    }
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
