// adlang serve: the built playground (web/, docs/playground.md) served over HTTP on 127.0.0.1
// only, for local use: a static file server (GET and HEAD), no server-side code, on
// cpp-httplib (Debian: libcpp-httplib-dev). The library links OpenSSL, zlib and brotli, so
// only adlang-full has this command; the lean adlang hands it over (cli/full_build.hpp).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace CLI {
class App;  // <CLI/CLI.hpp>, included by serve_command.cpp and main.cpp
}  // namespace CLI

namespace adlang {

struct ServeOptions {
  std::uint16_t port = 8000;  // 0: a free port, chosen by the system
  std::string dir;            // the page's folder; empty: the build's (ADLANG_PLAYGROUND_DIR)
};

// Serves until killed. Prints "serving DIR at http://127.0.0.1:PORT/" on `out` once listening
// (PORT is the chosen one when 0 was asked). Exit code 2 when DIR holds no built page or the
// port cannot be bound.
int serve_command(const ServeOptions& opts, std::ostream& out, std::ostream& err);

// Registers `adlang serve [--port N] [--dir D]`; when it runs (during app.parse()) it stores
// its exit code in `exit_code`.
void register_serve_command(CLI::App& app, int& exit_code);

}  // namespace adlang
