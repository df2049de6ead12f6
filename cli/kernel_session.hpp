// The adlang kernel's session (docs/kernel.md): a session of the language (driver/session.hpp)
// that runs whole cells (cli/kernel_cell.hpp) and reports the results of their inputs as
// Jupyter outputs: text on the stdout and stderr streams (exactly what the CLI prints for the
// same program), the results' pictures as display data (the trace graph, the plot:
// image/svg+xml, from memory), and the first failing input as an error (its kind's name, its
// message, and the CLI's diagnostic with its caret as the traceback).
//
// It knows nothing of processes or of the Jupyter protocol: cli/kernel_interpreter.cpp runs
// it in a child process per cell and forwards its outputs.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cli/kernel_cell.hpp"
#include "driver/session.hpp"

namespace adlang {

// Where a cell's outputs go, in the order they are made.
class CellOutputs {
 public:
  virtual ~CellOutputs() = default;
  // `name` is "stdout" or "stderr".
  virtual void stream(const std::string& name, const std::string& text) = 0;
  // A MIME bundle: (type, content) pairs, e.g. image/svg+xml and text/plain.
  virtual void display(const std::vector<std::pair<std::string, std::string>>& bundle) = 0;
  virtual void error(const std::string& ename, const std::string& evalue,
                     const std::vector<std::string>& traceback) = 0;
};

class KernelSession {
 public:
  KernelSession() = default;
  KernelSession(const KernelSession&) = delete;
  KernelSession& operator=(const KernelSession&) = delete;

  // Runs the cell's inputs in order until one fails; diagnostics name the cell In[count].
  // Returns the failing input's exit code (support/exit_codes.hpp), or 0.
  int run_cell(const std::string& cell, int execution_count, CellOutputs& outputs);

  Session& session() { return session_; }

  // The text of %help (followed by the REPL's :help).
  static const char* help_text();

 private:
  Session session_;
  std::string source_name_ = "In[1]";  // the cell being run

  int run_magic(const CellInput& in, CellOutputs& outputs);
  // Sends what the input printed and its pictures; on failure, its diagnostic as the error.
  int report(const CommandResult& r, CellOutputs& outputs);
  int plot(const CellInput& in, CellOutputs& outputs);
  int check_random(const std::string& count, CellOutputs& outputs);
};

}  // namespace adlang
