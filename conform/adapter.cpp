#include "conform/adapter.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace adlang::conform {

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool write_fully(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// A shell word: the text in single quotes.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

const char* to_string(AdapterReply::Status s) {
  switch (s) {
    case AdapterReply::Answered:
      return "answered";
    case AdapterReply::Timeout:
      return "timeout";
    case AdapterReply::Crashed:
      return "crashed";
    case AdapterReply::Malformed:
      return "malformed reply";
  }
  return "";
}

namespace {

nlohmann::json protocol_json(Type t, const std::vector<std::string>& scalars, std::size_t& at) {
  if (t.is_real()) return nlohmann::json::parse(scalars.at(at++));
  if (t.is_unit()) return nlohmann::json::array();
  nlohmann::json a = protocol_json(t.first(), scalars, at);
  return nlohmann::json::array({a, protocol_json(t.second(), scalars, at)});
}

bool reals_of(const nlohmann::json& j, std::vector<double>& out) {
  if (j.is_array()) {
    for (const nlohmann::json& part : j)
      if (!reals_of(part, out)) return false;
    return true;
  }
  if (j.is_number()) {
    out.push_back(j.get<double>());
    return true;
  }
  if (!j.is_string()) return false;
  std::string s = j.get<std::string>();
  if (s == "nan") {
    out.push_back(std::nan(""));
  } else if (s == "inf" || s == "-inf") {
    out.push_back(s == "inf" ? INFINITY : -INFINITY);
  } else {
    return false;
  }
  return true;
}

}  // namespace

std::string protocol_value(Type t, const std::vector<std::string>& scalars) {
  std::size_t at = 0;
  return protocol_json(t, scalars, at).dump();
}

bool protocol_reals(const std::string& json, std::vector<double>& out) {
  nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  return !j.is_discarded() && reals_of(j, out);
}

std::string adapter_command(const std::string& system) {
  // Debian's Python packages (python3-torch) belong to /usr/bin/python3, which need not be the
  // first python3 on PATH.
  if (system == "torch" || system == "python") {
    return "exec /usr/bin/python3 " +
           shell_quote(std::string(ADLANG_ADAPTER_DIR) + "/" + system + "_adapter.py");
  }
  return system;
}

Adapter::Adapter(std::string command, double time_limit)
    : command_(std::move(command)), time_limit_(time_limit) {}

Adapter::~Adapter() {
  stop();
  if (!stderr_path_.empty()) ::unlink(stderr_path_.c_str());
}

std::string Adapter::error_output() const {
  std::ifstream in(stderr_path_);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  if (text.size() > 2000) text = "..." + text.substr(text.size() - 2000);
  return text;
}

void Adapter::start() {
  if (pid_ > 0) return;
  // A write to an adapter that has gone must be an error return, not the end of adlang.
  ::signal(SIGPIPE, SIG_IGN);
  if (stderr_path_.empty()) {
    char tmpl[] = "/tmp/adlang-adapter-XXXXXX";
    int fd = ::mkstemp(tmpl);
    if (fd < 0)
      throw AdapterUnavailable(std::string("cannot make a file: ") + std::strerror(errno));
    ::close(fd);
    stderr_path_ = tmpl;
  }
  int in_pipe[2], out_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0)
    throw AdapterUnavailable(std::string("cannot make a pipe: ") + std::strerror(errno));
  pid_t pid = ::fork();
  if (pid < 0) throw AdapterUnavailable(std::string("cannot fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::setpgid(0, 0);
    ::dup2(in_pipe[0], 0);
    ::dup2(out_pipe[1], 1);
    int err = ::open(stderr_path_.c_str(), O_WRONLY | O_TRUNC);
    if (err >= 0) ::dup2(err, 2);
    ::signal(SIGPIPE, SIG_DFL);
    ::execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  pid_ = pid;
  to_adapter_ = in_pipe[1];
  from_adapter_ = out_pipe[0];
  buffer_.clear();
  if (starts_++ > 0) ++restarts_;
  // The handshake, within the time limit plus the interpreter's start (torch takes a second).
  std::string line;
  bool timed_out = false;
  double began = now_seconds();
  double deadline = began + time_limit_ + 30;
  bool greeted = read_line(line, deadline, timed_out);
  adapter_seconds_ += now_seconds() - began;
  if (!greeted) {
    stop();
    std::string why = timed_out ? "it sent no greeting" : "it exited before its greeting";
    std::string err = error_output();
    throw AdapterUnavailable("the adapter `" + command_ + "` did not start: " + why +
                             (err.empty() ? "" : "\n" + err));
  }
  try {
    nlohmann::json hello = nlohmann::json::parse(line);
    if (hello.at("protocol").get<std::string>() != kAdapterProtocol)
      throw std::runtime_error("protocol " + hello.at("protocol").dump());
    system_ = hello.at("system").get<std::string>();
    language_ = hello.at("language").get<std::string>();
    if (language_ != "python" && language_ != "torch")
      throw std::runtime_error("language " + language_ + " (python or torch)");
  } catch (const std::exception& e) {
    stop();
    throw AdapterUnavailable("the adapter `" + command_ + "` greeted with an unknown " +
                             "handshake (" + e.what() + "): " + line);
  }
}

void Adapter::stop() {
  if (pid_ <= 0) return;
  ::close(to_adapter_);
  ::close(from_adapter_);
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  to_adapter_ = from_adapter_ = -1;
}

bool Adapter::read_line(std::string& line, double deadline, bool& timed_out) {
  timed_out = false;
  for (;;) {
    std::size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return true;
    }
    double left = deadline - now_seconds();
    if (left <= 0) {
      timed_out = true;
      return false;
    }
    pollfd p{from_adapter_, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;
    char chunk[65536];
    ssize_t n = ::read(from_adapter_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

AdapterReply Adapter::run(const std::string& source, const std::string& ad_source,
                          const std::vector<AdapterCall>& calls) {
  start();
  long id = next_id_++;
  nlohmann::json request;
  request["id"] = id;
  request["language"] = language_;
  request["source"] = source;
  request["ad_source"] = ad_source;
  request["calls"] = nlohmann::json::array();
  for (const AdapterCall& c : calls) {
    nlohmann::json args = nlohmann::json::array();
    for (const std::string& a : c.args)
      args.push_back(nlohmann::json::parse(a));
    request["calls"].push_back({{"entry", c.entry}, {"args", args}});
  }
  AdapterReply reply;
  double began = now_seconds();
  std::string line;
  bool timed_out = false;
  bool sent = write_fully(to_adapter_, request.dump() + "\n");
  bool got = sent && read_line(line, began + time_limit_, timed_out);
  adapter_seconds_ += now_seconds() - began;
  if (!got) {
    reply.status = timed_out ? AdapterReply::Timeout : AdapterReply::Crashed;
    stop();
    reply.detail = timed_out ? "no reply within " + std::to_string(time_limit_) + " s"
                             : "the adapter exited: " + error_output();
    return reply;
  }
  try {
    nlohmann::json r = nlohmann::json::parse(line);
    if (r.at("id").get<long>() != id) throw std::runtime_error("the reply answers another request");
    const nlohmann::json& results = r.at("results");
    if (!results.is_array() || results.size() != calls.size())
      throw std::runtime_error("it has " + std::to_string(results.size()) + " results for " +
                               std::to_string(calls.size()) + " calls");
    for (const nlohmann::json& one : results) {
      CallResult c;
      if (one.contains("value")) {
        c.ok = true;
        c.value = one.at("value").dump();
      } else {
        c.error = one.at("error").get<std::string>();
      }
      reply.results.push_back(std::move(c));
    }
  } catch (const std::exception& e) {
    stop();
    reply.status = AdapterReply::Malformed;
    reply.results.clear();
    std::string shown = line.size() > 200 ? line.substr(0, 200) + "..." : line;
    reply.detail = std::string(e.what()) + ": " + shown;
  }
  return reply;
}

}  // namespace adlang::conform
