// Fuzz target: adlang pyrewrite (CPython's parser and the Horovod rewrite). A rewritten script
// parses again; a script left unchanged is returned byte for byte; in a rewritten one, every
// line that none of the rewriter's edits touches is in the output byte for byte, where the
// edits before it put it.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "lang/python/ast/py_parse.hpp"
#include "pyrewrite/pyrewrite.hpp"

using namespace adlang;

namespace {

[[noreturn]] void finding(const char* what, const std::string& in, const std::string& out) {
  std::fprintf(stderr, "%s\n--- input:\n%s\n--- output:\n%s\n", what, in.c_str(), out.c_str());
  std::abort();
}

// Every line of `in` that no edit touches (no replaced byte in it, no insertion strictly inside
// it) is in `out` at its offset moved by the edits before it. Computed line by line from the
// edits, independently of apply_edits; identical edits count once, as apply_edits applies them.
void check_untouched_lines(const std::string& in, const std::string& out, const py::Edits& all) {
  py::Edits edits;
  for (const py::TextEdit& e : all)
    if (std::find(edits.begin(), edits.end(), e) == edits.end()) edits.push_back(e);
  long long total = 0;
  for (const py::TextEdit& e : edits)
    total += static_cast<long long>(e.text.size()) - static_cast<long long>(e.end - e.begin);
  if (static_cast<long long>(out.size()) != static_cast<long long>(in.size()) + total)
    finding("the output's length is not the input's changed by the edits", in, out);
  for (std::size_t start = 0; start < in.size();) {
    std::size_t nl = in.find('\n', start);
    std::size_t end = nl == std::string::npos ? in.size() : nl + 1;
    bool touched = false;
    long long shift = 0;
    for (const py::TextEdit& e : edits) {
      if (e.begin < end && e.end > start) touched = true;  // replaces bytes of the line
      if (e.begin == e.end && e.begin > start && e.begin < end) touched = true;  // inserts inside
      if (e.end <= start)
        shift += static_cast<long long>(e.text.size()) - static_cast<long long>(e.end - e.begin);
    }
    if (!touched) {
      long long at = static_cast<long long>(start) + shift;
      if (at < 0 ||
          out.compare(static_cast<std::size_t>(at), end - start, in, start, end - start) != 0)
        finding("a line no edit touches changed", in, out);
    }
    start = end;
  }
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
  check_untouched_lines(text, r.output, r.edits);
  return 0;
}
