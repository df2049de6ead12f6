#include "cli/serve_command.hpp"

#include <httplib.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>

#include "support/exit_codes.hpp"

namespace adlang {

namespace {

bool is_regular_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Content-Types by extension, over cpp-httplib's table (which has these without a charset, and
// .json, .svg, .png and the other common ones; unknown extensions are sent as text/plain).
// application/wasm: browsers require it to compile the module streaming.
constexpr std::pair<const char*, const char*> kTypes[] = {
    {"html", "text/html; charset=utf-8"},
    {"js", "text/javascript; charset=utf-8"},
    {"mjs", "text/javascript; charset=utf-8"},
    {"css", "text/css; charset=utf-8"},
    {"wasm", "application/wasm"},
    {"ad", "text/plain; charset=utf-8"},
    {"txt", "text/plain; charset=utf-8"},
};

// Connections answered at once (the library's default is one per core, at least 8); more wait
// in its queue. A page load opens a dozen, and a browser's speculative connections send
// nothing until they time out.
constexpr std::size_t kWorkers = 32;
constexpr int kBacklog = 64;

// A request must arrive, and each send of the response progress, within this time: a client
// that sends nothing (a browser's speculative connection), drips its request or stops reading
// holds one of the library's worker threads no longer than that per read or write.
constexpr time_t kTimeoutSeconds = 5;

}  // namespace

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
  httplib::Server server;
  // cpp-httplib serves a mount point's files to GET and HEAD; "/" and names ending in "/" are
  // their index.html; the path is %-decoded first, and a path whose ".." segments would climb
  // above the folder is not looked up (404).
  if (!server.set_mount_point("/", dir, {{"Cache-Control", "no-cache"}})) {
    err << "adlang: error: cannot serve '" << dir << "': not a folder\n";
    return kExitUsage;
  }
  for (const auto& [ext, type] : kTypes)
    server.set_file_extension_and_mimetype_mapping(ext, type);
  // Before the library reads any body: only GET and HEAD, and no NUL in the path (the file
  // system would stop the name there).
  server.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
    if (req.method != "GET" && req.method != "HEAD") {
      res.status = 405;
      res.set_header("Allow", "GET, HEAD");
    } else if (req.path.find('\0') != std::string::npos) {
      res.status = 400;
    } else {
      return httplib::Server::HandlerResponse::Unhandled;
    }
    return httplib::Server::HandlerResponse::Handled;
  });
  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    const char* reason = res.status == 404   ? " not found"
                         : res.status == 405 ? " only GET and HEAD"
                                             : "";
    res.set_content(std::to_string(res.status) + reason + "\n", "text/plain; charset=utf-8");
  });
  // Bounded resources: kWorkers threads, one request per connection (each thread is free again
  // once it has answered), the timeouts above, and no request body kept (413).
  server.new_task_queue = [] { return new httplib::ThreadPool(kWorkers); };
  server.set_keep_alive_max_count(1);
  server.set_keep_alive_timeout(kTimeoutSeconds);
  server.set_read_timeout(kTimeoutSeconds);
  server.set_write_timeout(kTimeoutSeconds);
  server.set_payload_max_length(0);
  // IPv4 loopback, and SO_REUSEADDR rather than the library's default SO_REUSEPORT, with which
  // a second server on a port in use would bind too and share its connections.
  server.set_address_family(AF_INET);
  int listener = -1;
  server.set_socket_options([&listener](int sock) {
    listener = sock;
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  errno = 0;
  int port = opts.port;
  bool bound = port == 0 ? (port = server.bind_to_any_port("127.0.0.1")) > 0
                         : server.bind_to_port("127.0.0.1", port);
  if (!bound) {
    err << "adlang: error: cannot serve on 127.0.0.1:" << opts.port << ": "
        << (errno != 0 ? std::strerror(errno) : "the address cannot be bound") << "\n";
    return kExitUsage;
  }
  // The library listens with a backlog of 5 connections not yet accepted; beyond them the
  // system drops a connection's first packet and the client sends it again a second later,
  // which a page load opening a dozen at once would wait for. listen() again sets a longer one.
  ::listen(listener, kBacklog);
  out << "serving " << dir << " at http://127.0.0.1:" << port << "/" << std::endl;
  if (!server.listen_after_bind()) {
    err << "adlang: error: accept: " << std::strerror(errno) << "\n";
    return kExitUsage;
  }
  return kExitOk;
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
