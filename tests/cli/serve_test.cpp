// adlang serve (cli/serve_command.hpp, docs/playground.md "Build and serve"), running: the
// command started on a free port over a folder with a page, raw HTTP requests over a socket,
// and what comes back: the files with the Content-Types browsers insist on, HEAD without a
// body, 404 and 405, no file outside the folder, and answers while other connections idle.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "cli/process.hpp"
#include "support/exit_codes.hpp"

namespace adlang {
namespace {

namespace fs = std::filesystem;

const std::string kIndex = "<!doctype html><title>page</title>\n";
const std::string kWasm("\0asm\1\0\0\0", 8);
const std::string kScript = "export const b = 1;\n";
const std::string kSecret = "the secret next to the served folder\n";

void write_file(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

struct Response {
  int status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
};

// `adlang serve --port 0` over a scratch folder `site` (index.html, adlang_playground.wasm,
// sub/b.js) with a file `secret` beside it; killed when the test ends.
class ServeHttp : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/adlang_serve_test_XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    root_ = name;
    site_ = root_ / "site";
    write_file(site_ / "index.html", kIndex);
    write_file(site_ / "adlang_playground.wasm", kWasm);
    write_file(site_ / "sub" / "b.js", kScript);
    write_file(root_ / "secret", kSecret);

    int out[2];
    ASSERT_EQ(pipe(out), 0);
    const std::string binary = test::adlang_binary();
    const std::string dir = site_.string();
    pid_ = fork();
    ASSERT_GE(pid_, 0);
    if (pid_ == 0) {
      dup2(out[1], 1);
      close(out[0]);
      close(out[1]);
      execl(binary.c_str(), binary.c_str(), "serve", "--port", "0", "--dir", dir.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    close(out[1]);
    // The line it prints once listening, within 5 s.
    std::string printed;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (printed.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd p{out[0], POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char buf[256];
      ssize_t n = read(out[0], buf, sizeof buf);
      if (n <= 0) break;
      printed.append(buf, static_cast<std::size_t>(n));
    }
    close(out[0]);
    std::smatch m;
    ASSERT_TRUE(std::regex_match(
        printed, m, std::regex("serving " + dir + " at http://127\\.0\\.0\\.1:(\\d+)/\n")))
        << printed;
    port_ = std::stoi(m[1]);
    ASSERT_GT(port_, 0);
  }

  void TearDown() override {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  // A connected socket to the server, or -1.
  int connect_to_server() const {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port_));
    if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      close(fd);
      return -1;
    }
    return fd;
  }

  // Sends `request` as it is and reads the response until the server closes the connection
  // (at most 2 s).
  Response http(const std::string& request) const {
    Response r;
    int fd = connect_to_server();
    if (fd < 0) return r;
    timeval timeout{2, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    if (send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
        static_cast<ssize_t>(request.size())) {
      close(fd);
      return r;
    }
    std::string raw;
    char buf[4096];
    ssize_t n;
    while ((n = recv(fd, buf, sizeof buf, 0)) > 0)
      raw.append(buf, static_cast<std::size_t>(n));
    close(fd);
    std::size_t end = raw.find("\r\n\r\n");
    if (end == std::string::npos || raw.compare(0, 9, "HTTP/1.1 ") != 0) return r;
    r.status = std::atoi(raw.c_str() + 9);
    std::size_t line = raw.find("\r\n") + 2;
    while (line < end) {
      std::size_t next = raw.find("\r\n", line);
      std::string header = raw.substr(line, next - line);
      std::size_t colon = header.find(':');
      std::string key = header.substr(0, colon);
      for (char& c : key)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      r.headers[key] = header.substr(header.find_first_not_of(' ', colon + 1));
      line = next + 2;
    }
    r.body = raw.substr(end + 4);
    return r;
  }

  Response get(const std::string& target) const {
    return http("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  }

  fs::path root_, site_;
  pid_t pid_ = -1;
  int port_ = 0;
};

TEST_F(ServeHttp, RootGivesTheIndexAsHtml) {
  Response r = get("/");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.headers["content-type"], "text/html; charset=utf-8");
  EXPECT_EQ(r.body, kIndex);
  EXPECT_EQ(r.headers["connection"], "close");  // one request per connection
  EXPECT_EQ(get("/index.html?v=2#top").body, kIndex);
}

TEST_F(ServeHttp, HeadGivesTheHeadersWithoutABody) {
  Response r = http("HEAD /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.headers["content-type"], "text/html; charset=utf-8");
  EXPECT_EQ(r.headers["content-length"], std::to_string(kIndex.size()));
  EXPECT_EQ(r.body, "");
}

TEST_F(ServeHttp, ContentTypesBrowsersRequire) {
  Response wasm = get("/adlang_playground.wasm");
  EXPECT_EQ(wasm.status, 200);
  EXPECT_EQ(wasm.headers["content-type"], "application/wasm");
  EXPECT_EQ(wasm.body, kWasm);
  Response script = get("/sub/b.js");
  EXPECT_EQ(script.status, 200);
  EXPECT_EQ(script.headers["content-type"], "text/javascript; charset=utf-8");
  EXPECT_EQ(script.body, kScript);
  EXPECT_EQ(get("/sub/%62.js").body, kScript);  // %-escapes are decoded
}

TEST_F(ServeHttp, MissingFileIs404) {
  EXPECT_EQ(get("/nothing.js").status, 404);
  EXPECT_EQ(get("/sub/").status, 404);  // a folder without index.html
  EXPECT_EQ(http("HEAD /nothing.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").status, 404);
}

TEST_F(ServeHttp, NoPathLeavesTheFolder) {
  for (const char* target :
       {"/../secret", "/%2e%2e/secret", "/%2E%2E%2Fsecret", "/sub/../../secret",
        "/sub/%2e%2e/%2e%2e/secret", "//../secret", "/./../secret"}) {
    Response r = get(target);
    EXPECT_NE(r.status, 200) << target;
    EXPECT_EQ(r.body.find("secret"), std::string::npos) << target;
  }
  // A ".." that stays inside is a path like another.
  EXPECT_EQ(get("/sub/../index.html").body, kIndex);
  EXPECT_EQ(get("/index.html%00.js").status, 400);  // a NUL would cut the file name
}

TEST_F(ServeHttp, OnlyGetAndHead) {
  for (const char* method : {"POST", "PUT", "DELETE", "OPTIONS"}) {
    Response r = http(std::string(method) + " /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    EXPECT_EQ(r.status, 405) << method;
    EXPECT_EQ(r.headers["allow"], "GET, HEAD") << method;
    EXPECT_EQ(r.body.find("page"), std::string::npos) << method;
  }
}

// Connections that send nothing (a browser's speculative ones, or a slow client) are waited
// for by threads of their own: a request beside them is answered at once.
TEST_F(ServeHttp, IdleConnectionsDoNotHoldOthersUp) {
  std::vector<int> idle;
  for (int i = 0; i < 16; ++i)
    idle.push_back(connect_to_server());
  const auto start = std::chrono::steady_clock::now();
  Response r = get("/");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.body, kIndex);
  EXPECT_LT(seconds, 1.0);
  for (int fd : idle) {
    EXPECT_GE(fd, 0);
    close(fd);
  }
}

// A second server on a port in use fails (exit 2) rather than sharing its connections (were it
// to serve, `timeout` ends it: exit 124).
TEST_F(ServeHttp, APortInUseIsRefused) {
  const std::string port = std::to_string(port_);
  test::ProcessResult r = test::run_process(
      "/usr/bin/timeout",
      {"5", test::adlang_binary(), "serve", "--port", port, "--dir", site_.string()});
  EXPECT_EQ(r.exit_code, kExitUsage);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "adlang: error: cannot serve on 127.0.0.1:" + port + ": Address already in use\n");
}

TEST(ServeCommand, WithoutABuiltPageSaysHowToBuildIt) {
  test::ProcessResult r =
      test::run_process(test::adlang_binary(), {"serve", "--port", "0", "--dir", "/nonexistent"});
  EXPECT_EQ(r.exit_code, kExitUsage);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "adlang: error: no built playground in '/nonexistent'\n"
            "note: build it with scripts/build-web.sh (docs/playground.md), or give its folder "
            "with --dir\n");
}

}  // namespace
}  // namespace adlang
