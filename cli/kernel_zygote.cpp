#include "cli/kernel_zygote.hpp"

#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "cli/kernel_cell_messages.hpp"
#include "cli/kernel_session.hpp"
#include "cli/resource_options.hpp"
#include "driver/error_kind.hpp"
#include "support/descriptor_io.hpp"
#include "support/exit_codes.hpp"
#include "support/length_prefixed.hpp"
#include "support/setting_hint.hpp"

namespace adlang {
namespace {

// The zygote's answers: a kind and a number, in this machine's layout (both ends are one binary).
struct Answer {
  char kind;  // 'P': the cell's pid (or -errno), 'W': its wait status
  int value;
};

// ---- the cell's process ----------------------------------------------------------------

void send_message(int fd, char kind, const std::vector<std::string>& fields) {
  std::string body;
  for (const std::string& f : fields)
    put_field(body, f);
  std::string message(1, kind);
  put_field(message, body);
  if (!write_all(fd, message.data(), message.size())) _exit(kExitInternalError);  // kernel gone
}

// Each output goes to the pipe as it is made.
class PipeOutputs : public CellOutputs {
 public:
  explicit PipeOutputs(int fd) : fd_(fd) {}
  void stream(const std::string& name, const std::string& text) override {
    send_message(fd_, name == "stderr" ? kCellStderr : kCellStdout, {text});
  }
  void display(const std::vector<std::pair<std::string, std::string>>& bundle) override {
    std::vector<std::string> fields;
    for (const auto& [type, content] : bundle) {
      fields.push_back(type);
      fields.push_back(content);
    }
    send_message(fd_, kCellDisplay, fields);
  }
  void error(const std::string& ename, const std::string& evalue,
             const std::vector<std::string>& traceback) override {
    std::vector<std::string> fields{ename, evalue};
    fields.insert(fields.end(), traceback.begin(), traceback.end());
    send_message(fd_, kCellError, fields);
  }

 private:
  int fd_;
};

// Evaluates the cell on a session restored from `state`, sends the state after it, and exits
// without running destructors or atexit handlers (they belong to the kernel).
[[noreturn]] void run_cell_process(const std::string& state, const std::string& code, int count,
                                   int fd) {
  std::signal(SIGINT, SIG_DFL);  // an interrupt sent to the process group ends the cell too
  sigset_t sigint;
  sigemptyset(&sigint);
  sigaddset(&sigint, SIGINT);
  pthread_sigmask(SIG_UNBLOCK, &sigint, nullptr);
  PipeOutputs outputs(fd);
  set_front_end(FrontEnd::Notebook);  // hints name %set fuel N, not --fuel N
  try {
    KernelSession session;
    session.session().restore(state);
    start_resource_budget(budget_limits(ResourceOptions{}));
    session.run_cell(code, count, outputs);
    send_message(fd, kCellState, {session.session().snapshot()});
  } catch (const std::exception& e) {
    outputs.error(error_name(ErrorKind::Internal), e.what(), {e.what()});
  }
  _exit(0);
}

// ---- the zygote ------------------------------------------------------------------------

// A request: its first byte carries the cell's pipe (SCM_RIGHTS), then "<size>:<body>", the body
// the fields state, code, count, tmpdir.
bool receive_request(int sock, int& out, std::string& body) {
  char first = 0;
  iovec io{&first, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  msghdr msg{};
  msg.msg_iov = &io;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t r;
  do {
    r = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
  } while (r < 0 && errno == EINTR);
  if (r != 1) return false;
  out = -1;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
      std::memcpy(&out, CMSG_DATA(c), sizeof(int));
  if (out < 0) return false;
  std::string size(1, first);
  for (char ch = 0; size.back() != ':';) {
    if (!read_all(sock, &ch, 1) || size.size() > 20) return false;
    size += ch;
  }
  std::size_t n = 0;
  for (std::size_t i = 0; i + 1 < size.size(); ++i) {
    if (size[i] < '0' || size[i] > '9') return false;
    n = n * 10 + static_cast<std::size_t>(size[i] - '0');
  }
  body.assign(n, '\0');
  return read_all(sock, body.data(), body.size());
}

[[noreturn]] void serve(int sock) {
  // Jupyter interrupts the kernel's process group, which the zygote is in: only the cell's
  // process, in a group of its own, is the kernel's to end.
  std::signal(SIGINT, SIG_IGN);
  const pid_t zygote = getpid();
  for (;;) {
    int out = -1;
    std::string body;
    if (!receive_request(sock, out, body)) _exit(0);  // the kernel has closed its end
    std::size_t at = 0;
    std::string state, code, count, tmpdir;
    try {
      state = take_field(body, at);
      code = take_field(body, at);
      count = take_field(body, at);
      tmpdir = take_field(body, at);
    } catch (const std::exception&) {
      _exit(kExitInternalError);
    }
    pid_t pid = fork();
    if (pid == 0) {
      // A process group of the cell's own (set on both sides of the fork, so that it exists
      // before the kernel learns the pid), which an interrupt kills whole, dot and gnuplot
      // included; the cell's process ends with the zygote, which ends with the kernel.
      setpgid(0, 0);
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != zygote) _exit(kExitInternalError);
      close(sock);
      if (!tmpdir.empty()) setenv("TMPDIR", tmpdir.c_str(), 1);
      run_cell_process(state, code, std::atoi(count.c_str()), out);
    }
    Answer started{'P', pid > 0 ? pid : -errno};
    if (pid > 0) setpgid(pid, pid);
    close(out);
    if (!send_all(sock, &started, sizeof started)) _exit(0);
    if (pid < 0) continue;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    Answer ended{'W', status};
    if (!send_all(sock, &ended, sizeof ended)) _exit(0);
  }
}

}  // namespace

KernelZygote::KernelZygote() {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw std::runtime_error(std::string("cannot create the zygote's socket: ") +
                             std::strerror(errno));
  const pid_t kernel = getpid();
  pid_ = fork();
  if (pid_ == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // the zygote ends with the kernel
    if (getppid() != kernel) _exit(kExitInternalError);
    close(sv[0]);
    serve(sv[1]);
  }
  close(sv[1]);
  if (pid_ < 0) {
    close(sv[0]);
    throw std::runtime_error(std::string("cannot start the zygote: ") + std::strerror(errno));
  }
  socket_ = sv[0];
}

KernelZygote::~KernelZygote() {
  close(socket_);
  int status = 0;
  while (pid_ > 0 && waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

std::string KernelZygote::zygote_ended() {
  // It has ended, or broken the protocol: ended for sure, and reaped now rather than left a
  // zombie until the kernel exits.
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  return "the kernel's zygote (the process that starts the cells' processes) has ended; "
         "restart the kernel";
}

pid_t KernelZygote::start_cell(const std::string& state, const std::string& code, int count,
                               const std::string& tmpdir, int out, std::string& why) {
  std::string body;
  put_field(body, state);
  put_field(body, code);
  put_field(body, std::to_string(count));
  put_field(body, tmpdir);
  std::string request;
  put_field(request, body);
  iovec io{request.data(), 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = &io;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &out, sizeof(int));
  ssize_t r;
  do {
    r = sendmsg(socket_, &msg, MSG_NOSIGNAL);
  } while (r < 0 && errno == EINTR);
  Answer started{};
  if (r != 1 || !send_all(socket_, request.data() + 1, request.size() - 1) ||
      !read_all(socket_, &started, sizeof started) || started.kind != 'P') {
    why = zygote_ended();
    return -1;
  }
  if (started.value < 0) {
    why = std::string("cannot start the cell's process: ") + std::strerror(-started.value);
    return -1;
  }
  return started.value;
}

bool KernelZygote::wait_cell(int& status, std::string& why) {
  Answer ended{};
  if (!read_all(socket_, &ended, sizeof ended) || ended.kind != 'W') {
    why = zygote_ended();
    return false;
  }
  status = ended.value;
  return true;
}

}  // namespace adlang
