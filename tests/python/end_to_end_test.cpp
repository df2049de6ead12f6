// End-to-end cases per pattern: the realistic training scripts of examples/python are rewritten
// with the pattern training-loop identification chooses, and compared with
// tests/python/golden/e2e/<script>.after.py and .log.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "golden.hpp"
#include "pyrewrite/pyrewrite.hpp"
#include "pyrewrite/unified_diff.hpp"

namespace adlang::test {
namespace {

std::vector<std::string> scripts() {
  std::vector<std::string> out;
  for (const std::string& f : files_with_suffix(source_dir() + "/examples/python", ".py"))
    out.push_back(f.substr(0, f.size() - 3));
  return out;
}

class EndToEnd : public ::testing::TestWithParam<std::string> {};

TEST_P(EndToEnd, RewritesTheTrainingScript) {
  const std::string& name = GetParam();
  std::string input = read_file(source_dir() + "/examples/python/" + name + ".py");
  std::string label = "examples/python/" + name + ".py";
  py::RewriteResult r = py::rewrite_python(label, input);
  ASSERT_EQ(r.status, py::RewriteStatus::Rewritten) << render_log(label, input, r);
  std::string dir = source_dir() + "/tests/python/golden/e2e/";
  expect_golden(dir + name + ".after.py", r.output);
  expect_golden(dir + name + ".log", render_log(label, input, r));
  expect_well_formed(label, input, r);
  // The pattern follows from the script's name: keras_*, tape_*, session_*, monitored_*.
  ASSERT_TRUE(r.pattern);
  EXPECT_EQ(name.substr(0, name.find('_')), py::pattern_name(*r.pattern));
}

// Lines the rules did not touch are byte-identical: every input line the diff removes or
// changes lies in a statement a rule fired on (the examples' rewritten statements span at most
// three lines, so within two lines after a firing).
TEST_P(EndToEnd, UntouchedLinesAreByteIdentical) {
  const std::string& name = GetParam();
  std::string input = read_file(source_dir() + "/examples/python/" + name + ".py");
  py::RewriteResult r = py::rewrite_python(name + ".py", input);
  std::string diff = py::unified_diff(input, r.output, "a", "b");
  std::istringstream in(diff);
  std::size_t line = 0, removed = 0;
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("@@ -", 0) == 0) {
      line = std::stoul(l.substr(4));
      continue;
    }
    if (l.rfind("---", 0) == 0 || l.rfind("+++", 0) == 0 || l.empty()) continue;
    if (l[0] == ' ') ++line;
    if (l[0] != '-') continue;
    ++removed;
    bool near = false;
    for (const auto& f : r.firings)
      near = near || (line >= f.loc.line && line <= f.loc.line + 2);
    EXPECT_TRUE(near) << name << ": line " << line << " changed but no rule fired on it: " << l;
    ++line;
  }
  EXPECT_GT(removed + r.firings.size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Examples, EndToEnd, ::testing::ValuesIn(scripts()));

TEST(EndToEnd, EachPatternHasAnExample) {
  std::vector<std::string> s = scripts();
  for (const char* p : {"keras_", "tape_", "session_", "monitored_"}) {
    bool found = false;
    for (const std::string& n : s)
      found = found || n.rfind(p, 0) == 0;
    EXPECT_TRUE(found) << p;
  }
}

}  // namespace
}  // namespace adlang::test
