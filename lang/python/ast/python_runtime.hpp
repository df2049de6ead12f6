// The embedded CPython interpreter: initialised once per process, isolated from the user's
// environment (PYTHONHOME, PYTHONPATH, site-packages), with the standard library of the Python the
// project was built against. Callers hold a PythonLock while they touch Python objects.
#pragma once

#include <string>

namespace adlang::py {

// Initialises the interpreter on first use (thread-safe) and takes the GIL for its lifetime.
// Throws InternalError when the interpreter cannot start (e.g. its standard library is missing).
class PythonLock {
 public:
  PythonLock();
  ~PythonLock();
  PythonLock(const PythonLock&) = delete;
  PythonLock& operator=(const PythonLock&) = delete;

 private:
  int state_;
};

// The version of the embedded interpreter, e.g. "3.11.2".
std::string python_version();

}  // namespace adlang::py
