// adlang repl on a terminal: each input is evaluated in a child process, as the Jupyter
// kernel's cells are (cli/kernel_interpreter.hpp), so that Ctrl-C ends an evaluation wherever
// it is (the evaluators have no cancellation) and leaves the session as it was before the
// input, with all its definitions. The child is a fork of the REPL's own process, which has one
// thread (it evaluates nothing itself: no thread can hold a lock at the fork); it writes to the
// terminal directly and sends the session's state back through a pipe (ReplSession::snapshot).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "driver/repl_session.hpp"

namespace adlang {

// From now on SIGINT does not end the process: it ends the child evaluating an input, if there
// is one, and is remembered for take_interrupt(). A read of the terminal it interrupts returns
// (the handler is installed without SA_RESTART), so the line reader can start a new line.
void catch_interrupts();

// Whether an interrupt came since the last call; clears it.
// Whether an interrupt came and has not been taken yet.
bool interrupt_pending();
bool take_interrupt();

// Runs session.handle(input, line) in a child process and takes over the state the session is
// left in. Returns the input's exit code, or nullopt when an interrupt ended the child (the
// session is then as it was); an interrupt not yet taken when it starts (one that came after
// the line was read) ends the child at once. Without a child (fork fails) the input runs in
// this process.
std::optional<int> handle_in_child(ReplSession& session, const std::string& input,
                                   std::uint32_t line);

}  // namespace adlang
