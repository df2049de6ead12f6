#include "cli/kernel_interpreter.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <xeus/xhelper.hpp>

#include "cli/kernel_cell_messages.hpp"
#include "cli/temporary_directory.hpp"
#include "driver/error_kind.hpp"
#include "support/length_prefixed.hpp"
#include "support/utf8.hpp"

namespace adlang {

namespace {

// Whether a cell is being evaluated, the process evaluating it (0: not started yet), and
// whether an interrupt came for it (also while its process was being started).
std::atomic<bool> cell_running{false};
std::atomic<pid_t> running_child{0};
std::atomic<bool> interrupted{false};

// Jupyter messages are JSON, whose strings must be UTF-8 (xeus's serialiser throws on anything
// else): a byte that does not start or continue a valid sequence (a Latin-1 source line echoed
// by a diagnostic) is shown as \xNN.
std::string as_utf8(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (std::size_t n = utf8_sequence_length(s, i)) {
      out.append(s, i, n);
      i += n;
    } else {
      static const char* hex = "0123456789ABCDEF";
      auto c = static_cast<unsigned char>(s[i++]);
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// Reads the pipe until the child closes it, handing each message to `on_message`.
template <class F>
void read_messages(int fd, F on_message) {
  std::string buffer;
  char chunk[65536];
  for (;;) {
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    buffer.append(chunk, static_cast<std::size_t>(n));
    // Whole messages from the front of the buffer.
    std::size_t at = 0;
    for (;;) {
      if (buffer.size() - at < 2) break;
      std::size_t colon = buffer.find(':', at + 1);
      if (colon == std::string::npos) break;
      std::size_t len = std::stoul(buffer.substr(at + 1, colon - at - 1));
      if (buffer.size() - colon - 1 < len) break;
      char kind = buffer[at];
      std::string body = buffer.substr(colon + 1, len);
      std::vector<std::string> fields;
      for (std::size_t p = 0; p < body.size();)
        fields.push_back(take_field(body, p));
      on_message(kind, fields);
      at = colon + 1 + len;
    }
    buffer.erase(0, at);
  }
}

}  // namespace

void KernelInterpreter::interrupt() {
  if (!cell_running.load()) return;
  interrupted.store(true);
  pid_t child = running_child.load();
  if (child > 0) kill(-child, SIGKILL);  // the cell's process group: the process and its tools
}

nl::json KernelInterpreter::execute_request_impl(int execution_counter, const std::string& code,
                                                 bool silent, bool, nl::json, bool) {
  int fds[2];
  // Close-on-exec: a tool the cell runs (dot, gnuplot) must not hold the pipe open after an
  // interrupt has killed the cell's process.
  if (pipe2(fds, O_CLOEXEC) != 0) {
    std::string why = std::string("cannot create a pipe: ") + std::strerror(errno);
    publish_execution_error("InternalError", why, {why});
    return xeus::create_error_reply("InternalError", why, {why});
  }
  std::cout.flush();
  std::cerr.flush();
  interrupted.store(false);
  cell_running.store(true);
  // A directory of the cell's own (empty if none can be made): the cell's process gets it as
  // its TMPDIR, so the files its pictures are drawn into, and those of the tools it runs, are
  // in it, and the kernel removes it after the cell, also when an interrupt killed the process
  // before it could remove its files.
  const std::string cell_dir = make_temporary_directory("adlang-cell");
  auto remove_cell_directory = [&] {
    std::error_code ignored;
    if (!cell_dir.empty()) std::filesystem::remove_all(cell_dir, ignored);
  };
  std::string why;
  const pid_t pid = zygote_->start_cell(session_.session().snapshot(), code, execution_counter,
                                        cell_dir, fds[1], why);
  close(fds[1]);
  if (pid < 0) {
    cell_running.store(false);
    remove_cell_directory();
    close(fds[0]);
    publish_execution_error("InternalError", why, {why});
    return xeus::create_error_reply("InternalError", why, {why});
  }
  running_child.store(pid);
  // An interrupt that came while the process was being started: it has a pid now.
  if (interrupted.load()) kill(-pid, SIGKILL);
  std::optional<nl::json> error;
  bool got_state = false;
  std::optional<std::string>
      failure;  // what went wrong on the kernel's side while reading the cell's outputs
  try {
    read_messages(fds[0], [&](char kind, std::vector<std::string> f) {
      if (kind == kCellState && f.size() == 1) {
        session_.session().restore(f[0]);  // the session's own bytes, not shown
        got_state = true;
        return;
      }
      for (std::string& field : f)
        field = as_utf8(field);
      if (kind == kCellError && f.size() >= 2) {
        std::vector<std::string> traceback(f.begin() + 2, f.end());
        if (!silent) publish_execution_error(f[0], f[1], traceback);
        error = xeus::create_error_reply(f[0], f[1], traceback);
      } else if (silent) {
        return;
      } else if ((kind == kCellStdout || kind == kCellStderr) && f.size() == 1) {
        publish_stream(kind == kCellStderr ? "stderr" : "stdout", f[0]);
      } else if (kind == kCellDisplay) {
        nl::json data = nl::json::object();
        for (std::size_t i = 0; i + 1 < f.size(); i += 2)
          data[f[i]] = f[i + 1];
        display_data(std::move(data), nl::json::object(), nl::json::object());
      }
    });
  } catch (const std::exception& e) {
    // The cell is abandoned, but the kernel answers it and goes on: the child is ended and
    // reaped, the pipe closed, and the reply is an error.
    failure = as_utf8(e.what());
    kill(-pid, SIGKILL);
  }
  close(fds[0]);
  running_child.store(0);
  cell_running.store(false);
  int status = 0;
  if (!zygote_->wait_cell(status, why) && !failure) failure = why;
  remove_cell_directory();
  if (failure) {
    std::string evalue = "the kernel could not read the cell's outputs: " + *failure;
    publish_execution_error(error_name(ErrorKind::Internal), evalue, {evalue});
    return xeus::create_error_reply(error_name(ErrorKind::Internal), evalue, {evalue});
  }
  if (!got_state && !error) {
    std::string ename, evalue;
    if (interrupted.load() || (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT)) {
      ename = "Interrupted";
      evalue = "the evaluation was interrupted; the cell's definitions and settings are not kept";
    } else {
      ename = error_name(ErrorKind::Internal);
      evalue = WIFSIGNALED(status)
                   ? "the cell's process died of signal " + std::to_string(WTERMSIG(status)) +
                         " (" + strsignal(WTERMSIG(status)) + ")"
                   : "the cell's process ended without a result (exit status " +
                         std::to_string(WEXITSTATUS(status)) + ")";
    }
    publish_execution_error(ename, evalue, {evalue});
    return xeus::create_error_reply(ename, evalue, {evalue});
  }
  if (error) return *error;
  return xeus::create_successful_reply();
}

nl::json KernelInterpreter::complete_request_impl(const std::string&, int cursor_pos) {
  return xeus::create_complete_reply(nl::json::array(), cursor_pos, cursor_pos);
}

nl::json KernelInterpreter::inspect_request_impl(const std::string&, int, int) {
  return xeus::create_inspect_reply();
}

nl::json KernelInterpreter::is_complete_request_impl(const std::string& code) {
  return xeus::create_is_complete_reply(cell_is_complete(code) ? "complete" : "incomplete");
}

nl::json KernelInterpreter::kernel_info_request_impl() {
  return xeus::create_info_reply(
      "5.3", "adlang", "0.1.0", "adlang", "0.1.0", "text/x-adlang", ".ad", "", "", "",
      "adlang: the differentiable programming language of Abadi & Plotkin (POPL 2020).\n"
      "%help lists the commands; docs/kernel.md describes the kernel.");
}

}  // namespace adlang
