#include "cli/serve_command.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <system_error>
#include <thread>

#include "support/descriptor_io.hpp"
#include "support/exit_codes.hpp"

namespace adlang {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool ends_with(const std::string& s, const char* suffix) {
  std::size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

bool is_regular_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The browser may have gone: nothing to do then.
void send_response(int fd, const std::string& bytes) {
  send_all(fd, bytes.data(), bytes.size());
}

std::string status_response(const char* status, bool head) {
  std::string body = std::string(status) + "\n";
  std::string r = std::string("HTTP/1.1 ") + status +
                  "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: " +
                  std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
  return head ? r : r + body;
}

// Connections answered at once; more are closed unanswered (a browser retries).
constexpr int kMaxConnections = 64;
std::atomic<int> connections{0};
// A request must arrive whole within this time, and each send of the response must progress
// within it: a client that drips its request or stops reading holds a thread no longer.
constexpr int kTimeoutSeconds = 10;

// One connection: one request, one response, then close (HTTP/1.1 "Connection: close").
void answer(int fd, const std::string& root) {
  std::string request;
  char buf[4096];
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kTimeoutSeconds);
  while (request.find("\r\n\r\n") == std::string::npos && request.size() < 65536 &&
         std::chrono::steady_clock::now() < deadline) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    request.append(buf, static_cast<std::size_t>(n));
  }
  std::istringstream line(request.substr(0, request.find("\r\n")));
  std::string method, target, version;
  line >> method >> target >> version;
  bool head = method == "HEAD";
  if (method.empty()) {
    ::close(fd);
    return;  // a connection opened and left (a browser's preconnect)
  }
  if (method != "GET" && !head) {
    send_response(fd, status_response("405 Method Not Allowed", false));
  } else if (std::optional<std::string> file = request_file(root, target); !file) {
    send_response(fd, status_response("400 Bad Request", head));
  } else if (!is_regular_file(*file)) {
    send_response(fd, status_response("404 Not Found", head));
  } else {
    std::ifstream in(*file, std::ios::binary);
    std::ostringstream body;
    if (in) body << in.rdbuf();
    if (!in) {
      send_response(fd, status_response("403 Forbidden", head));  // unreadable
      ::close(fd);
      return;
    }
    std::string b = body.str();
    std::string r = std::string("HTTP/1.1 200 OK\r\nContent-Type: ") + content_type(*file) +
                    "\r\nContent-Length: " + std::to_string(b.size()) +
                    "\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
    send_response(fd, head ? r : r + b);
  }
  ::close(fd);
}

}  // namespace

std::optional<std::string> request_file(const std::string& root, const std::string& target) {
  if (target.empty() || target[0] != '/') return std::nullopt;
  std::string path = target.substr(0, target.find_first_of("?#"));
  std::string decoded;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '%') {
      decoded += path[i];
      continue;
    }
    if (i + 2 >= path.size()) return std::nullopt;
    int hi = hex_digit(path[i + 1]), lo = hex_digit(path[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    decoded += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  if (decoded.find('\0') != std::string::npos || decoded.find('\\') != std::string::npos)
    return std::nullopt;
  // No segment may be "..": the file stays under root whatever the segments are.
  std::istringstream segments(decoded);
  std::string segment;
  while (std::getline(segments, segment, '/'))
    if (segment == "..") return std::nullopt;
  if (decoded.back() == '/') decoded += "index.html";
  return root + decoded;
}

const char* content_type(const std::string& path) {
  struct Type {
    const char* ext;
    const char* type;
  };
  static const Type types[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".wasm", "application/wasm"},
      {".json", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ad", "text/plain; charset=utf-8"},
      {".txt", "text/plain; charset=utf-8"},
  };
  for (const Type& t : types)
    if (ends_with(path, t.ext)) return t.type;
  return "application/octet-stream";
}

int serve_command(const ServeOptions& opts, std::ostream& out, std::ostream& err) {
  std::string dir = opts.dir.empty() ? std::string(ADLANG_PLAYGROUND_DIR) : opts.dir;
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  if (!is_regular_file(dir + "/index.html") || !is_regular_file(dir + "/adlang_playground.wasm")) {
    err << "adlang: error: no built playground in '" << dir
        << "'\nnote: build it with scripts/build-web.sh (docs/playground.md), or give its folder "
           "with --dir\n";
    return kExitUsage;
  }
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  int yes = 1;
  ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // local use only
  addr.sin_port = htons(opts.port);
  socklen_t len = sizeof addr;
  if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listener, 64) != 0 ||
      ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    err << "adlang: error: cannot serve on 127.0.0.1:" << opts.port << ": " << std::strerror(errno)
        << "\n";
    if (listener >= 0) ::close(listener);
    return kExitUsage;
  }
  out << "serving " << dir << " at http://127.0.0.1:" << ntohs(addr.sin_port) << "/" << std::endl;
  for (;;) {
    int fd = ::accept(listener, nullptr, nullptr);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Out of descriptors or memory for now: wait for connections to end.
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
      err << "adlang: error: accept: " << std::strerror(errno) << "\n";
      ::close(listener);
      return kExitUsage;
    }
    // A connection that sends nothing (a browser's speculative one), or stops reading, is
    // given up after kTimeoutSeconds.
    timeval timeout{kTimeoutSeconds, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    if (connections.load() >= kMaxConnections) {
      ::close(fd);
      continue;
    }
    ++connections;
    try {
      std::thread([fd, dir] {
        answer(fd, dir);
        --connections;
      }).detach();
    } catch (const std::system_error&) {  // no thread to be had: the connection is closed
      --connections;
      ::close(fd);
    }
  }
}

void register_serve_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ServeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "serve", "serve the browser playground (docs/playground.md) on http://127.0.0.1:PORT/");
  cmd->add_option("--port", opts->port, "the port (0: a free one, printed)")->default_str("8000");
  cmd->add_option("--dir", opts->dir, "the built page's folder")
      ->default_str(ADLANG_PLAYGROUND_DIR);
  cmd->callback([opts, &exit_code] { exit_code = serve_command(*opts, std::cout, std::cerr); });
}

}  // namespace adlang
