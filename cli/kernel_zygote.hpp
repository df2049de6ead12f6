// The process that forks the kernel's cell processes (docs/kernel.md, "Interrupt, and the
// cell's process"). The kernel forks it before it starts any thread, so every cell's process is
// the fork of a process with one thread and may run the whole evaluator; a fork of the kernel
// itself, which has xeus's and ZeroMQ's threads, may inherit a lock one of them held at the
// moment of the fork. As Android's zygote, it does nothing but fork: the kernel sends it the
// session's state, the cell and the pipe the cell's messages go to (cli/kernel_cell_messages.hpp);
// it answers with the cell process's pid, then with its wait status when it has ended.
#pragma once

#include <sys/types.h>

#include <string>

namespace adlang {

class KernelZygote {
 public:
  // Forks the zygote: call before any thread starts. Throws std::runtime_error if it cannot.
  KernelZygote();
  // Closes the zygote's socket, on which it then exits, and reaps it.
  ~KernelZygote();
  KernelZygote(const KernelZygote&) = delete;
  KernelZygote& operator=(const KernelZygote&) = delete;

  // Starts a cell's process: on a session restored from `state` (ReplSession::snapshot), it runs
  // `code` as In[count], with `tmpdir` as its TMPDIR unless empty, and writes its messages to
  // `out` (the caller closes its own copy). Returns its pid, which leads a process group of its
  // own, or -1 with the reason in `why`.
  pid_t start_cell(const std::string& state, const std::string& code, int count,
                   const std::string& tmpdir, int out, std::string& why);

  // Waits for the cell's process started last to end: its wait status, or false with `why`.
  bool wait_cell(int& status, std::string& why);

  // The zygote's pid (tests: it has one thread, and is the cell processes' parent).
  pid_t pid() const { return pid_; }

 private:
  int socket_ = -1;
  pid_t pid_ = -1;  // -1 once reaped

  // The reason given when the zygote does not answer: ends it if it has not, and reaps it.
  std::string zygote_ended();
};

}  // namespace adlang
