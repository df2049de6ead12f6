// An adapter: a subprocess that runs exported programs on an AD system and answers over the
// JSON-lines protocol of docs/conform.md. One process serves a whole run; a request that takes
// longer than the time limit, a reply that is not the protocol's, or a process that dies ends
// that process, the request is answered with what went wrong, and the next request starts a new
// process (so no other program's result is lost).
//
// The protocol, one JSON object per line:
//   adapter -> adlang, once at start:  {"protocol": "adlang-conform/1", "system": "torch 1.13.0",
//                                       "language": "torch"}   (language: python or torch, the
//                                       export it reads)
//   adlang -> adapter, per program:    {"id": 7, "language": "torch", "source": "<exported>",
//                                       "ad_source": "<the .ad program>",
//                                       "calls": [{"entry": "main", "args": [0.5, [1, 2]]}, ...]}
//   adapter -> adlang:                 {"id": 7, "results": [{"value": 1.25}, {"error": "..."}]}
// A value is a number, "nan", "inf" or "-inf" for a real, [] for *, [a, b] for a pair.
#pragma once

#include <sys/types.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "lang/type.hpp"

namespace adlang::conform {

// The protocol's version string, in the handshake.
inline constexpr const char* kAdapterProtocol = "adlang-conform/1";

struct AdapterCall {
  std::string entry;              // a function of the exported module: main, gradient
  std::vector<std::string> args;  // each a JSON value
};

struct CallResult {
  bool ok = false;
  std::string value;  // the JSON value when ok
  std::string error;  // the system's error otherwise
};

struct AdapterReply {
  enum Status {
    Answered,   // results holds one result per call
    Timeout,    // no reply within the time limit: the adapter was stopped
    Crashed,    // the adapter exited or closed its output
    Malformed,  // the reply was not the protocol's
  } status = Answered;
  std::vector<CallResult> results;
  std::string detail;  // what went wrong (the adapter's last error output for a crash)
};

const char* to_string(AdapterReply::Status s);

// The adapter could not be started or did not greet with the protocol (the message says why,
// with the adapter's own error output, e.g. the Debian package to install).
class AdapterUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Adapter {
 public:
  // `command` runs under /bin/sh; `time_limit` is per request, in seconds.
  Adapter(std::string command, double time_limit);
  ~Adapter();
  Adapter(const Adapter&) = delete;
  Adapter& operator=(const Adapter&) = delete;

  // Starts the process if it is not running; AdapterUnavailable if it cannot.
  void start();
  // The handshake's fields (after start()).
  const std::string& system() const { return system_; }
  const std::string& language() const { return language_; }

  AdapterReply run(const std::string& source, const std::string& ad_source,
                   const std::vector<AdapterCall>& calls);

  // Processes started after the first (after a timeout, a crash or a malformed reply).
  unsigned restarts() const { return restarts_; }
  // Seconds spent waiting for the adapter's greetings and replies.
  double adapter_seconds() const { return adapter_seconds_; }

 private:
  void stop();
  // Reads one line before `deadline` (steady-clock seconds); false on timeout or end of file.
  bool read_line(std::string& line, double deadline, bool& timed_out);
  std::string error_output() const;

  std::string command_;
  double time_limit_;
  pid_t pid_ = -1;
  int to_adapter_ = -1, from_adapter_ = -1;
  std::string stderr_path_;
  std::string buffer_;
  std::string system_, language_;
  unsigned starts_ = 0, restarts_ = 0;
  long next_id_ = 1;
  double adapter_seconds_ = 0;
};

// A value of type t (its reals as decimal texts, in order) as the protocol's JSON.
std::string protocol_value(Type t, const std::vector<std::string>& scalars);
// The reals of a protocol value, in order ("nan", "inf" and "-inf" read as those); false if
// `json` is not a protocol value.
bool protocol_reals(const std::string& json, std::vector<double>& out);

// The command of a shipped adapter (conform/adapters): "torch" or "python"; otherwise `system`
// itself (a user's command).
std::string adapter_command(const std::string& system);

}  // namespace adlang::conform
