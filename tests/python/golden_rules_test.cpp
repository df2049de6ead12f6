// Before/after pairs for every rule branch of the rewrite document (LibCST's codemod tests):
// tests/python/golden/<pattern>/<case>.before.py is rewritten with that pattern and compared with
// <case>.after.py; the diagnostics and the rules that fired are compared with <case>.log.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "golden.hpp"
#include "pyrewrite/pyrewrite.hpp"

namespace adlang::test {
namespace {

struct Case {
  std::string pattern;
  std::string name;
  friend void PrintTo(const Case& c, std::ostream* os) { *os << c.pattern << "/" << c.name; }
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* p : {"keras", "tape", "session", "monitored"})
    for (const std::string& f :
         files_with_suffix(source_dir() + "/tests/python/golden/" + p, ".before.py"))
      out.push_back({p, f.substr(0, f.size() - std::string(".before.py").size())});
  return out;
}

class RuleBranch : public ::testing::TestWithParam<Case> {};

TEST_P(RuleBranch, RewritesAsTheGoldenFileSays) {
  const Case& c = GetParam();
  std::string dir = source_dir() + "/tests/python/golden/" + c.pattern + "/";
  std::string input = read_file(dir + c.name + ".before.py");
  py::RewriteOptions o;
  o.pattern = py::pattern_from_name(c.pattern);
  std::string label = c.name + ".py";
  py::RewriteResult r = py::rewrite_python(label, input, o);
  ASSERT_EQ(r.status, py::RewriteStatus::Rewritten) << render_log(label, input, r);
  expect_golden(dir + c.name + ".after.py", r.output);
  expect_golden(dir + c.name + ".log", render_log(label, input, r));
  expect_well_formed(label, input, r);
}

INSTANTIATE_TEST_SUITE_P(Golden, RuleBranch, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           return i.param.pattern + "_" + i.param.name;
                         });

// Every pattern directory has cases (a missing directory would make the suite vacuous).
TEST(RuleBranch, EveryPatternHasGoldenCases) {
  for (const char* p : {"keras", "tape", "session", "monitored"})
    EXPECT_GE(files_with_suffix(source_dir() + "/tests/python/golden/" + p, ".before.py").size(),
              5u)
        << p;
}

}  // namespace
}  // namespace adlang::test
