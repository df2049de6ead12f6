#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "lang/python/ast/python_runtime.hpp"

#include <mutex>
#include <string>

#include "lang/diagnostics.hpp"

namespace adlang::py {

namespace {

std::string status_message(const PyStatus& status) {
  std::string msg = "cannot start the embedded Python interpreter";
  if (status.func) msg += std::string(" (") + status.func + ")";
  if (status.err_msg) msg += std::string(": ") + status.err_msg;
  return msg;
}

void check(const PyStatus& status, PyConfig& config) {
  if (PyStatus_Exception(status)) {
    PyConfig_Clear(&config);
    throw InternalError(status_message(status));
  }
}

// Isolated configuration: the user's PYTHON* variables and site-packages play no part, the
// standard library is the one found at build time (see lang/python/CMakeLists.txt).
void initialise() {
  PyConfig config;
  PyConfig_InitIsolatedConfig(&config);
  config.site_import = 0;
  config.install_signal_handlers = 0;
  config.write_bytecode = 0;
  config.parse_argv = 0;
  check(PyConfig_SetBytesString(&config, &config.home, ADLANG_PYTHON_HOME), config);
  config.module_search_paths_set = 1;
  for (const char* dir : {ADLANG_PYTHON_STDLIB, ADLANG_PYTHON_STDARCH}) {
    wchar_t* wide = Py_DecodeLocale(dir, nullptr);
    if (!wide) {
      PyConfig_Clear(&config);
      throw InternalError(std::string("cannot decode the Python library path ") + dir);
    }
    PyStatus st = PyWideStringList_Append(&config.module_search_paths, wide);
    PyMem_RawFree(wide);
    check(st, config);
  }
  check(Py_InitializeFromConfig(&config), config);
  PyConfig_Clear(&config);
  // The trees ast.parse builds are acyclic and freed by reference counting; the cyclic collector
  // would only walk them again and again while they are built (a third of the parse time).
  PyGC_Disable();
  // Release the GIL; every use takes it through PythonLock.
  PyEval_SaveThread();
}

std::once_flag g_once;

}  // namespace

PythonLock::PythonLock() {
  std::call_once(g_once, initialise);
  state_ = static_cast<int>(PyGILState_Ensure());
}

PythonLock::~PythonLock() {
  PyGILState_Release(static_cast<PyGILState_STATE>(state_));
}

std::string python_version() {
  PythonLock lock;
  return Py_GetVersion();
}

}  // namespace adlang::py

// LeakSanitizer (sanitizer builds only read this): the embedded interpreter lives until the
// process exits and is never finalised, so its allocations are not leaks of adlang. Every
// binary that embeds it (adlang on a .py file, the test suites) suppresses them by itself.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libpython3.11.so\n";
}
