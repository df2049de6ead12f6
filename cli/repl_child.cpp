#include "cli/repl_child.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli/resource_options.hpp"
#include "support/descriptor_io.hpp"
#include "support/exit_codes.hpp"
#include "support/length_prefixed.hpp"

namespace adlang {

namespace {

// The child evaluating an input (0: none), and whether an interrupt came.
std::atomic<pid_t> running_child{0};
std::atomic<bool> interrupted{false};

static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<bool>::is_always_lock_free,
              "the SIGINT handler uses them");

void on_interrupt(int) {
  interrupted.store(true);
  pid_t child = running_child.load();
  if (child > 0) kill(child, SIGKILL);
}

// The child: evaluates the input, sends exit code, :quit and state, and exits without running
// destructors or atexit handlers (they belong to the REPL's process).
[[noreturn]] void run_child(ReplSession& session, const std::string& input, std::uint32_t line,
                            int fd) {
  std::signal(SIGINT, SIG_DFL);  // Ctrl-C reaches the terminal's whole process group
  int code = kExitInternalError;
  try {
    // The memory budget of `adlang run` (docs/robustness.md), as the kernel's cells have it.
    start_resource_budget(budget_limits(ResourceOptions{}));
    code = session.handle(input, line);
  } catch (const std::exception& e) {
    std::cerr << "adlang: internal error: " << e.what() << "\n";
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::string message;
  put_field(message, std::to_string(code));
  put_field(message, session.quit_requested() ? "1" : "0");
  put_field(message, session.snapshot());
  _exit(write_all(fd, message.data(), message.size()) ? 0 : kExitInternalError);
}

}  // namespace

void catch_interrupts() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART
  sigaction(SIGINT, &sa, nullptr);
}

bool interrupt_pending() {
  return interrupted.load();
}

bool take_interrupt() {
  return interrupted.exchange(false);
}

std::optional<int> handle_in_child(ReplSession& session, const std::string& input,
                                   std::uint32_t line) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return session.handle(input, line);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    run_child(session, input, line, fds[1]);
  }
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    return session.handle(input, line);
  }
  running_child.store(pid);
  if (interrupted.load()) kill(pid, SIGKILL);  // an interrupt while the child was being made
  std::string message;
  char chunk[65536];
  for (;;) {
    ssize_t n = read(fds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    message.append(chunk, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  running_child.store(0);
  try {
    std::size_t at = 0;
    int code = std::stoi(take_field(message, at));
    bool quit = take_field(message, at) == "1";
    session.restore(take_field(message, at));
    if (quit) session.handle(":quit");
    return code;
  } catch (const std::exception&) {
    // No state: the child did not finish.
  }
  if (take_interrupt()) return std::nullopt;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) return std::nullopt;
  std::cerr << "adlang: internal error: the evaluation ended "
            << (WIFSIGNALED(status) ? std::string("by signal ") + strsignal(WTERMSIG(status))
                                    : "with exit code " + std::to_string(WEXITSTATUS(status)))
            << " (the session is as it was before this input)\n";
  return kExitInternalError;
}

}  // namespace adlang
