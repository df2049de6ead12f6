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
ToolResult run_tool(const std::vector<std::string>& argv, const std::string&) {
  return ToolResult{-1, argv[0] + " cannot be started in the browser"};
}
#else
ToolResult run_tool(const std::vector<std::string>& argv, const std::string& input) {
  ToolResult r;
  int in[2], err[2];
  if (pipe(in) != 0) return ToolResult{-1, std::strerror(errno)};
  if (pipe(err) != 0) {
    close(in[0]);
    close(in[1]);
    return ToolResult{-1, std::strerror(errno)};
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
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
  if (rc != 0) {
    close(in[1]);
    close(err[0]);
    return ToolResult{-1, "cannot run " + argv[0] + ": " + std::strerror(rc)};
  }
  // Write the input and read the diagnostics together, so neither pipe can fill up.
  signal(SIGPIPE, SIG_IGN);
  std::size_t written = 0;
  bool in_open = true, err_open = true;
  if (input.empty()) {
    close(in[1]);
    in_open = false;
  }
  while (in_open || err_open) {
    pollfd fds[2];
    nfds_t n = 0;
    if (err_open) fds[n++] = pollfd{err[0], POLLIN, 0};
    if (in_open) fds[n++] = pollfd{in[1], POLLOUT, 0};
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (nfds_t i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == err[0]) {
        char buf[4096];
        ssize_t k = read(err[0], buf, sizeof buf);
        if (k <= 0) {
          close(err[0]);
          err_open = false;
        } else {
          r.messages.append(buf, static_cast<std::size_t>(k));
        }
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
