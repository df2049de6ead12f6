// Fuzz target: adlang pyrewrite (CPython's parser and the Horovod rewrite). A rewritten script
// parses again; a script left unchanged is returned byte for byte. (That the lines no rule
// touched are byte-identical is not checked here: it needs the rewriter's list of edits, see
// docs/fuzzing.md.)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "lang/python/ast/py_parse.hpp"
#include "lang/python/rewrite/pyrewrite.hpp"

using namespace adlang;

namespace {

[[noreturn]] void finding(const char* what, const std::string& in, const std::string& out) {
  std::fprintf(stderr, "%s\n--- input:\n%s\n--- output:\n%s\n", what, in.c_str(), out.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  py::RewriteResult r = py::rewrite_python("fuzz.py", text);
  if (r.status != py::RewriteStatus::Rewritten) {
    if (r.output != text) finding("an unchanged script was not returned as it was", text, r.output);
    return 0;
  }
  try {
    py::check_syntax("rewritten.py", r.output);
  } catch (const std::exception& e) {
    finding(e.what(), text, r.output);
  }
  return 0;
}
