#include "viz/external_tool.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace adlang {

#ifdef __EMSCRIPTEN__
// The playground (docs/playground.md): a browser starts no processes; the page draws the
// pictures itself from their DOT text.
ToolResult run_tool(const std::vector<std::string>& argv, const std::string&, bool) {
  return ToolResult{-1, argv[0] + " cannot be started in the browser", {}};
}
#else
ToolResult run_tool(const std::vector<std::string>& argv, const std::string& input,
                    bool keep_output) {
  ToolResult r;
  int in[2], err[2], out[2] = {-1, -1};
  if (pipe(in) != 0) return ToolResult{-1, std::strerror(errno), {}};
  if (pipe(err) != 0 || (keep_output && pipe(out) != 0)) {
    std::string why = std::strerror(errno);
    for (int fd : {in[0], in[1], err[0], err[1]})
      if (fd >= 0) close(fd);
    return ToolResult{-1, why, {}};
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  if (keep_output) {
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, out[0]);
  } else {
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  }
  posix_spawn_file_actions_addclose(&fa, in[1]);
  posix_spawn_file_actions_addclose(&fa, err[0]);
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(err[1]);
  if (keep_output) close(out[1]);
  if (rc != 0) {
    close(in[1]);
    close(err[0]);
    if (keep_output) close(out[0]);
    return ToolResult{-1, "cannot run " + argv[0] + ": " + std::strerror(rc), {}};
  }
  // Write the input and read the diagnostics (and the output) together, so no pipe can fill up.
  signal(SIGPIPE, SIG_IGN);
  std::size_t written = 0;
  bool in_open = true, err_open = true, out_open = keep_output;
  if (input.empty()) {
    close(in[1]);
    in_open = false;
  }
  // Reads what `fd` has into `into`; false at its end (then closed).
  auto drain = [](int fd, std::string& into) {
    char buf[65536];
    ssize_t k = read(fd, buf, sizeof buf);
    if (k < 0 && errno == EINTR) return true;
    if (k <= 0) {
      close(fd);
      return false;
    }
    into.append(buf, static_cast<std::size_t>(k));
    return true;
  };
  while (in_open || err_open || out_open) {
    pollfd fds[3];
    nfds_t n = 0;
    if (err_open) fds[n++] = pollfd{err[0], POLLIN, 0};
    if (out_open) fds[n++] = pollfd{out[0], POLLIN, 0};
    if (in_open) fds[n++] = pollfd{in[1], POLLOUT, 0};
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (nfds_t i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == err[0]) {
        err_open = drain(err[0], r.messages);
      } else if (out_open && fds[i].fd == out[0]) {
        out_open = drain(out[0], r.output);
      } else {
        ssize_t k = write(in[1], input.data() + written, input.size() - written);
        if (k > 0) written += static_cast<std::size_t>(k);
        if (k < 0 || written == input.size()) {
          close(in[1]);
          in_open = false;
        }
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}
#endif

}  // namespace adlang
