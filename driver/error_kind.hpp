// What failed, as the command that caught it decides (driver/command_runner.hpp's run_guarded,
// the session's own checks): each kind with its exit code (support/exit_codes.hpp, docs/cli.md),
// the "kind" of --json's error object, and the name a notebook shows (the Jupyter error's ename,
// docs/kernel.md). The front ends read these; none maps an exit code back to a name.
#pragma once

#include "support/exit_codes.hpp"

namespace adlang {

enum class ErrorKind {
  None,         // success
  Undefined,    // the program's meaning is undefined (bottom)
  Resources,    // a budget ran out (fuel, trace size, memory): undefined as far as we can tell
  Usage,        // bad options, an input without a value, an unreadable file
  Compile,      // a syntax or type error
  CheckFailed,  // a property of `adlang check` failed
  Internal,     // a bug in adlang
  Distributed,  // a partition's MPI process died or stopped answering
};

constexpr int exit_code_of(ErrorKind k) {
  switch (k) {
    case ErrorKind::None:
      return kExitOk;
    case ErrorKind::Undefined:
    case ErrorKind::Resources:
      return kExitUndefined;
    case ErrorKind::Usage:
      return kExitUsage;
    case ErrorKind::Compile:
      return kExitCompileError;
    case ErrorKind::CheckFailed:
      return kExitCheckFailed;
    case ErrorKind::Internal:
      return kExitInternalError;
    case ErrorKind::Distributed:
      return kExitDistributed;
  }
  return kExitInternalError;
}

// The "kind" of `--json`'s error object (docs/cli.md).
constexpr const char* json_kind(ErrorKind k) {
  switch (k) {
    case ErrorKind::None:
      return "none";
    case ErrorKind::Undefined:
      return "undefined";
    case ErrorKind::Resources:
      return "resources";
    case ErrorKind::Usage:
      return "usage";
    case ErrorKind::Compile:
      return "compile";
    case ErrorKind::CheckFailed:
      return "check";
    case ErrorKind::Internal:
      return "internal";
    case ErrorKind::Distributed:
      return "distributed";
  }
  return "internal";
}

// The name of the failure in a notebook (docs/kernel.md): one per exit code, so a budget that
// ran out is `Undefined`, as its exit code says.
constexpr const char* error_name(ErrorKind k) {
  switch (k) {
    case ErrorKind::None:
      return "";
    case ErrorKind::Undefined:
    case ErrorKind::Resources:
      return "Undefined";
    case ErrorKind::Usage:
      return "UsageError";
    case ErrorKind::Compile:
      return "CompileError";
    case ErrorKind::CheckFailed:
      return "CheckFailed";
    case ErrorKind::Internal:
      return "InternalError";
    case ErrorKind::Distributed:
      return "DistributedError";
  }
  return "InternalError";
}

}  // namespace adlang
