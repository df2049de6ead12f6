// adlang repl: driven through a pipe (golden transcripts) and through a pseudo-terminal
// (scripted keystrokes, history recall with the arrow keys).
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "cli/process.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::ProcessResult;

// Runs tests/golden/repl/NAME.in through `adlang repl` on a pipe and compares standard output
// and standard error with NAME.out and NAME.err.
ProcessResult piped_session(const std::string& name) {
  std::string dir = test::source_dir() + "/tests/golden/repl";
  ProcessResult r = test::run_process(test::adlang_binary(), {"repl"}, dir,
                                      test::read_file(dir + "/" + name + ".in"));
  test::expect_golden("repl/" + name + ".out", r.out);
  test::expect_golden("repl/" + name + ".err", r.err);
  return r;
}

TEST(Repl, PipedSessionKeepsDefinitionsAcrossErrors) {
  ProcessResult r = piped_session("session");
  // A script's exit code is its first failure's: the syntax error.
  EXPECT_EQ(r.exit_code, 3);
  // The last line, after several errors, still uses the definitions.
  EXPECT_NE(r.out.rfind("64\n"), std::string::npos);
}

TEST(Repl, PipedCheckRunsThePropertiesOnOneProgram) {
  ProcessResult r = piped_session("check");
  EXPECT_EQ(r.exit_code, 4);  // under total predicates, correctness-near fails at the tie
}

TEST(Repl, PipedLoadBringsDefinitionsIntoScope) {
  ProcessResult r = piped_session("load");
  EXPECT_EQ(r.exit_code, 2);  // the missing file
}

TEST(Repl, MessagesNameTheSessionsCommandsAndLines) {
  ProcessResult r = piped_session("messages");
  EXPECT_EQ(r.exit_code, 1);  // the first failure: countdown out of fuel
  // The hints are the REPL's commands, never the command line's flags.
  EXPECT_EQ(r.err.find(" --"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(":set fuel N"), std::string::npos) << r.err;
  // log(0) inside logsq is reported on the line logsq was typed on (7), not the program's.
  EXPECT_NE(r.err.find("<repl>:7:"), std::string::npos) << r.err;
  // `help` without the colon is the help.
  EXPECT_NE(r.out.find(":set fuel N"), std::string::npos) << r.out;
}

TEST(Repl, ScriptWithoutErrorsExitsZero) {
  ProcessResult r = test::run_process(test::adlang_binary(), {"repl"}, "",
                                      "def f(x: real): real = x + 1;\nf(f(1))\n:quit\nf(0)\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "3\n");
}

// A child process on a pseudo-terminal, written to as a user types.
class Terminal {
 public:
  Terminal() {
    pid_ = forkpty(&fd_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      setenv("TERM", "xterm", 1);
      std::string bin = test::adlang_binary();
      execl(bin.c_str(), bin.c_str(), "repl", static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~Terminal() {
    if (pid_ > 0) {
      close(fd_);
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  bool started() const { return pid_ > 0; }

  // Types `keys` once the line editor reads the terminal key by key. libedit prints its prompt
  // before it switches the terminal out of canonical mode; keys typed in between would be
  // taken by the terminal's own line editing, so this waits for the switch (tcgetattr on the
  // master side reads the terminal's modes).
  void type(const std::string& keys) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    termios mode{};
    while (tcgetattr(fd_, &mode) == 0 && (mode.c_lflag & ICANON) &&
           std::chrono::steady_clock::now() < deadline)
      usleep(1000);
    ssize_t n = write(fd_, keys.data(), keys.size());
    ASSERT_EQ(n, static_cast<ssize_t>(keys.size()));
  }

  // Writes `keys` at once, whatever mode the terminal is in (Ctrl-C during an evaluation).
  void press(const std::string& keys) {
    ssize_t n = write(fd_, keys.data(), keys.size());
    ASSERT_EQ(n, static_cast<ssize_t>(keys.size()));
  }

  // Waits until the line editor has given the terminal back (canonical mode): an input is
  // being evaluated.
  void wait_evaluating() {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    termios mode{};
    while (tcgetattr(fd_, &mode) == 0 && !(mode.c_lflag & ICANON) &&
           std::chrono::steady_clock::now() < deadline)
      usleep(1000);
  }

  pid_t pid() const { return pid_; }

  // Reads until the output since the last call contains `text` (at most 10 s); returns it.
  std::string read_until(const std::string& text) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (pending_.find(text) == std::string::npos &&
           std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char buf[4096];
      ssize_t n = read(fd_, buf, sizeof buf);
      if (n <= 0) break;
      pending_.append(buf, static_cast<std::size_t>(n));
    }
    std::size_t at = pending_.find(text);
    std::string seen = at == std::string::npos ? pending_ : pending_.substr(0, at + text.size());
    pending_ = at == std::string::npos ? "" : pending_.substr(at + text.size());
    return seen;
  }

  // Waits for the process to exit; its exit code (-1 if it did not exit in 10 s). Output is
  // drained meanwhile. The terminal reports end of file (EIO) as soon as the child has closed
  // it, which can be a moment before the child can be waited for: so this polls, with pauses.
  int wait_exit() {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        close(fd_);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      pollfd p{fd_, POLLIN, 0};
      char buf[4096];
      if (poll(&p, 1, 20) > 0 && read(fd_, buf, sizeof buf) <= 0) usleep(10000);
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string pending_;
};

TEST(Repl, TerminalEditsLinesAndRecallsHistory) {
  Terminal t;
  ASSERT_TRUE(t.started());
  EXPECT_NE(t.read_until("adlang> ").find(":help"), std::string::npos);
  t.type("def sq(x: real): real = x * x;\r");
  t.read_until("adlang> ");
  t.type("sq(7)\r");
  EXPECT_NE(t.read_until("adlang> ").find("\r\n49\r\n"), std::string::npos);
  // An error, with a caret under the line just typed, does not end the session.
  t.type("sq(1 +)\r");
  std::string err = t.read_until("adlang> ");
  EXPECT_NE(err.find("error: "), std::string::npos) << err;
  EXPECT_NE(err.find("^"), std::string::npos) << err;
  // Up arrow twice recalls `sq(7)`; editing it (Backspace over "7)", type "8)") gives sq(8).
  t.type("\x1b[A\x1b[A");
  t.type("\x7f\x7f");
  t.type("8)\r");
  std::string recalled = t.read_until("adlang> ");
  EXPECT_NE(recalled.find("\r\n64\r\n"), std::string::npos) << recalled;
  // Ctrl-A moves to the start of the line: "1 + " is inserted before the recalled input.
  t.type("\x1b[A\x01");
  t.type("1 + \r");
  EXPECT_NE(t.read_until("adlang> ").find("\r\n65\r\n"), std::string::npos);
  // A definition over two lines gets a continuation prompt.
  t.type("def cube(x: real): real =\r");
  t.read_until("...> ");
  t.type("x * sq(x);\r");
  t.read_until("adlang> ");
  t.type("cube(2)\r");
  EXPECT_NE(t.read_until("adlang> ").find("\r\n8\r\n"), std::string::npos);
  t.type("\x04");  // Ctrl-D: end of input
  EXPECT_EQ(t.wait_exit(), 0);
}

// Ctrl-C, as in GHCi and Python: it ends the evaluation (or the line being typed), prints
// "Interrupted", and the session goes on with all its definitions. About 2 s.
TEST(Repl, CtrlCInterruptsAndKeepsTheSession) {
  Terminal t;
  ASSERT_TRUE(t.started());
  t.read_until("adlang> ");
  t.type("def sq(x: real): real = x * x;\r");
  t.read_until("adlang> ");
  t.type("def fib(n: real): real = if n < 2 then n else fib(n - 1) + fib(n - 2);\r");
  t.read_until("adlang> ");
  t.type(":set fuel 1000000000000\r");
  t.read_until("adlang> ");
  // fib(60.5) takes about 10^12 calls: hours (at half-integers no comparison ties).
  t.type("fib(60.5)\r");
  t.wait_evaluating();
  usleep(300000);
  t.press("\x03");
  std::string seen = t.read_until("adlang> ");
  EXPECT_NE(seen.find("Interrupted\r\n"), std::string::npos) << seen;
  t.type("sq(7)\r");
  seen = t.read_until("adlang> ");
  EXPECT_NE(seen.find("\r\n49\r\n"), std::string::npos) << seen;
  // At the prompt, the line being typed is dropped; so is a definition typed over two lines.
  // (As a student does, Ctrl-C after the line editor has echoed what was typed.)
  t.type("sq(");
  t.read_until("sq(");
  t.press("\x03");
  EXPECT_NE(t.read_until("adlang> ").find("Interrupted"), std::string::npos);
  t.type("def cube(x: real): real =\r");
  t.read_until("...> ");
  t.type("x");
  t.read_until("x");
  t.press("\x03");
  t.read_until("adlang> ");
  t.type("cube(2)\r");
  seen = t.read_until("adlang> ");
  EXPECT_NE(seen.find("unknown function 'cube'"), std::string::npos) << seen;
  // SIGINT sent to the REPL's process itself (kill -INT), not typed, ends the evaluation too.
  t.type("fib(60.5)\r");
  t.wait_evaluating();
  usleep(300000);
  kill(t.pid(), SIGINT);
  EXPECT_NE(t.read_until("adlang> ").find("Interrupted"), std::string::npos);
  t.type("sq(8) + fib(10.5)\r");
  seen = t.read_until("adlang> ");
  EXPECT_NE(seen.find("\r\n163.5\r\n"), std::string::npos) << seen;
  t.type("\x04");
  EXPECT_EQ(t.wait_exit(), 0);
}

// Ctrl-L clears the screen (the terminal's clear sequence) and keeps the line being typed.
TEST(Repl, CtrlLClearsTheScreen) {
  Terminal t;
  ASSERT_TRUE(t.started());
  t.read_until("adlang> ");
  t.type("1 +");
  t.read_until("1 +");
  t.type("\x0c");
  // The screen is cleared (xterm's clear: cursor home, erase the display), then the prompt
  // and the line are drawn again.
  std::string seen = t.read_until("1 +");
  EXPECT_NE(seen.find("\x1b[2J"), std::string::npos) << ::testing::PrintToString(seen);
  EXPECT_NE(seen.find("adlang> "), std::string::npos) << ::testing::PrintToString(seen);
  t.type(" 2\r");
  EXPECT_NE(t.read_until("adlang> ").find("\r\n3\r\n"), std::string::npos);
  t.type("\x04");
  EXPECT_EQ(t.wait_exit(), 0);
}

}  // namespace
}  // namespace adlang
