// The exit codes of `adlang` (docs/design.md Sec. 8; docs/cli.md).
#pragma once

namespace adlang {

enum ExitCode : int {
  kExitOk = 0,             // success
  kExitUndefined = 1,      // the program's meaning is undefined (bottom), with the reason
  kExitUsage = 2,          // bad command line, unreadable file, missing input value
  kExitCompileError = 3,   // syntax or type error
  kExitCheckFailed = 4,    // an `adlang check` property failed
  kExitInternalError = 5,  // a bug in adlang (an internal invariant failed); please report it
  kExitDistributed = 6,    // a partition's MPI process died or stopped answering
};

}  // namespace adlang
