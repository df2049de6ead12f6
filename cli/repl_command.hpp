// adlang repl: a read-eval-print loop over the language (driver/repl_session.hpp says what an
// input means).
#pragma once

#include <istream>
#include <ostream>

namespace adlang {

// Reads inputs from `in` until end of input or :quit. With standard input on a terminal it
// edits lines with libedit and keeps a history; otherwise `in` runs as a script without
// prompts. Returns 0 on a terminal; for a script, the exit code of its first failing input.
int repl_command(std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace adlang
