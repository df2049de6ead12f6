// Bad input: each case is a clear message, never a crash. Golden files under
// tests/python/golden/diagnostics/<case>.log hold the status and the rendered diagnostics.
#include <gtest/gtest.h>

#include <string>

#include "golden.hpp"
#include "pyrewrite/pyrewrite.hpp"

namespace adlang::test {
namespace {

py::RewriteResult check(const std::string& name, py::RewriteStatus expected) {
  std::string input = read_file(source_dir() + "/tests/python/golden/diagnostics/" + name + ".py");
  py::RewriteResult r = py::rewrite_python(name + ".py", input);
  EXPECT_EQ(r.status, expected) << render_log(name + ".py", input, r);
  expect_golden(source_dir() + "/tests/python/golden/diagnostics/" + name + ".log",
                render_log(name + ".py", input, r));
  if (r.status != py::RewriteStatus::Rewritten) {
    EXPECT_EQ(r.output, input);
  }
  EXPECT_FALSE(r.reason.empty() && r.status != py::RewriteStatus::Rewritten);
  return r;
}

TEST(BadInput, SyntaxErrorIsReportedWithItsLocation) {
  auto r = check("syntax_error", py::RewriteStatus::Failed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::Error);
  EXPECT_EQ(r.diagnostics[0].loc.line, 3u);
  EXPECT_EQ(r.diagnostics[0].loc.col, 7u);
}

TEST(BadInput, IndentationErrorIsASyntaxError) {
  auto r = check("indentation_error", py::RewriteStatus::Failed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].loc.line, 3u);
}

TEST(BadInput, SyntaxErrorColumnCountsBytesAfterNonAscii) {
  auto r = check("unicode_syntax_error", py::RewriteStatus::Failed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].loc.line, 2u);
}

TEST(BadInput, EmptyFileIsLeftAlone) {
  check("empty", py::RewriteStatus::Unchanged);
}

TEST(BadInput, NonUtf8BytesAreReportedAtTheirPosition) {
  auto r = check("not_utf8", py::RewriteStatus::Failed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].loc.line, 2u);
  EXPECT_EQ(r.diagnostics[0].loc.col, 12u);
}

TEST(BadInput, ScriptWithoutTensorFlowIsLeftAlone) {
  check("no_tensorflow", py::RewriteStatus::Unchanged);
}

TEST(BadInput, TwoKindsOfTrainingLoopAreAnError) {
  auto r = check("two_loops", py::RewriteStatus::Failed);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics[0].message.find("restriction 3.1.3"), std::string::npos);
}

TEST(BadInput, TwoKindsOfTrainingLoopWithAPatternGiven) {
  std::string input = read_file(source_dir() + "/tests/python/golden/diagnostics/two_loops.py");
  py::RewriteOptions o;
  o.pattern = py::Pattern::Keras;
  py::RewriteResult r = py::rewrite_python("two_loops.py", input, o);
  EXPECT_EQ(r.status, py::RewriteStatus::Rewritten);
  EXPECT_EQ(r.detected, py::LoopKind::Conflict);
}

TEST(BadInput, ScriptAlreadyUsingHorovodIsLeftAlone) {
  check("already_horovod", py::RewriteStatus::Unchanged);
}

TEST(BadInput, ScriptWithoutTrainingLoopIsLeftAlone) {
  check("no_training_loop", py::RewriteStatus::Unchanged);
}

TEST(BadInput, LoopRestrictionsAreWarnings) {
  auto r = check("conditional_loop", py::RewriteStatus::Rewritten);
  int warnings = 0;
  for (const auto& d : r.diagnostics)
    warnings += d.severity == Severity::Warning;
  EXPECT_GE(warnings, 2);
}

TEST(BadInput, NullByteIsReported) {
  std::string input("import tensorflow as tf\nx = 1\0\n", 28);
  py::RewriteResult r = py::rewrite_python("nul.py", input);
  EXPECT_EQ(r.status, py::RewriteStatus::Failed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].loc.line, 2u);
}

TEST(BadInput, DeeplyNestedExpressionIsAnErrorNotACrash) {
  std::string input = "import tensorflow as tf\nx = " + std::string(2000, '(') + "1" +
                      std::string(2000, ')') + "\n";
  py::RewriteResult r = py::rewrite_python("deep.py", input);
  EXPECT_EQ(r.status, py::RewriteStatus::Failed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
}

TEST(BadInput, LongOperatorChainIsAnErrorNotACrash) {
  std::string sum = "a";
  for (int i = 0; i < 2990; ++i)
    sum += "+a";
  py::RewriteResult r =
      py::rewrite_python("chain.py", "import tensorflow as tf\nx = " + sum + "\n");
  EXPECT_EQ(r.status, py::RewriteStatus::Failed);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].loc.line, 2u);
}

}  // namespace
}  // namespace adlang::test
