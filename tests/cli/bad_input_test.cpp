// Bad input of every kind gets a clear error and its documented exit code, never a crash or
// a hang (issue: random bytes, truncated programs, 10^5 nested parentheses, unbound names,
// ill-typed terms, recursion without base case, NaN/inf and 1e400, a missing file).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <unistd.h>

#include <fstream>

#include "cli/process.hpp"
#include "support/stack.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::ProcessResult;

// A file private to this test process (ctest runs tests in parallel).
std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + "adlang_" + std::to_string(getpid()) + "_" +
                     testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

ProcessResult run_text(const std::string& text, std::vector<std::string> extra = {}) {
  std::string f = write_temp("bad.ad", text);
  std::vector<std::string> args = {"run", f};
  args.insert(args.end(), extra.begin(), extra.end());
  return test::run_process(test::adlang_binary(), args);
}

bool crashed(const ProcessResult& r) {
  return r.exit_code >= 5 || r.exit_code < 0;
}

TEST(BadInput, MissingFile) {
  ProcessResult r = test::run_process(test::adlang_binary(), {"run", "/nonexistent/x.ad"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "adlang: error: cannot read '/nonexistent/x.ad': No such file or directory\n");
}

TEST(BadInput, EmptyFile) {
  ProcessResult r = run_text("");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("error: expected a term, found end of file"), std::string::npos);
}

TEST(BadInput, SyntaxErrorWithCaret) {
  ProcessResult r = run_text("let x: real = 1\nx + 1");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(
      r.err.find(":2:1: error: expected 'in' after the bound term of 'let x', found name 'x'\n"
                 "  x + 1\n  ^\n"),
      std::string::npos)
      << r.err;
}

TEST(BadInput, IllTypedTerm) {
  ProcessResult r = run_text("(1, 2) + 3");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("the left operand of '+' must be a real"), std::string::npos);
}

TEST(BadInput, UnboundNameInAFunctionBody) {
  ProcessResult r = run_text("def f(x: real): real = x + y;\nf(1)");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("unbound variable 'y'"), std::string::npos) << r.err;
}

TEST(BadInput, InputWithoutAValue) {
  ProcessResult r = run_text("x + 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("error: input 'x' has no value"), std::string::npos);
  EXPECT_NE(r.err.find("give it a value with --env x=VALUE"), std::string::npos);
}

TEST(BadInput, FunctionUsedAsAValueIsATypeError) {
  ProcessResult r = run_text("def sq(x: real): real = x * x;\nsq + 1");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find(":2:1: error: 'sq' is a function, not a value"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("--env"), std::string::npos) << r.err;
}

TEST(BadInput, MisspelledVariableGetsDidYouMean) {
  ProcessResult r = run_text("let rate = 2 in rat * 3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("error: input 'rat' has no value"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("note: did you mean 'rate'?"), std::string::npos) << r.err;
}

TEST(BadInput, NanAndInfAreNotNumbers) {
  ProcessResult r = run_text("x + 1", {"--env", "x=nan"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--env x: not a value"), std::string::npos) << r.err;
  EXPECT_EQ(run_text("x + 1", {"--env", "x=inf"}).exit_code, 2);
  ProcessResult p = run_text("nan + 1");  // a name, so an input without a value
  EXPECT_EQ(p.exit_code, 2);
}

TEST(BadInput, HugeLiteralsAreOutsideDoublePrecision) {
  ProcessResult r = run_text("1e400 * 0");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("undefined: the literal 1e400 is outside the range of double precision"),
            std::string::npos);
  EXPECT_NE(r.err.find("--precision 50"), std::string::npos);
  ProcessResult ok = run_text("1e400 * 0", {"--precision", "50"});
  EXPECT_EQ(ok.exit_code, 0);
  EXPECT_EQ(ok.out, "0\n");
  EXPECT_EQ(run_text("x", {"--env", "x=1e400"}).exit_code, 2);
  EXPECT_EQ(run_text("1e999999999999", {"--precision", "exact"}).exit_code, 1);
}

TEST(BadInput, ResultsOutsideTheRange) {
  ProcessResult r = run_text("exp(1000)");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("rerun with --precision 50"), std::string::npos);
}

TEST(BadInput, RecursionWithoutBaseCase) {
  ProcessResult r = run_text("def f(x: real): real = f(x);\nf(1)", {"--fuel", "3000"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("undefined: out of fuel after 3000 function calls in 'f'"),
            std::string::npos)
      << r.err;
  // Non-tail recursion without base case with the default fuel: stack or fuel, cleanly.
  ProcessResult d = run_text("def f(x: real): real = 1 + f(x);\nf(1)");
  EXPECT_EQ(d.exit_code, 1) << d.err;
}

TEST(BadInput, HundredThousandNestedParentheses) {
  std::string balanced = std::string(100000, '(') + "1" + std::string(100000, ')');
  ProcessResult r = run_text(balanced);
  if (kLargeStackBytes >= (std::size_t(1) << 30)) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "1\n");
  } else {  // sanitizer builds: a 64 MiB stack (support/stack.hpp)
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("nested too deeply"), std::string::npos);
  }
  ProcessResult u = run_text(std::string(100000, '(') + "1");
  EXPECT_EQ(u.exit_code, 3);
  ProcessResult deep = run_text(std::string(3000000, '(') + "1" + std::string(3000000, ')'));
  EXPECT_EQ(deep.exit_code, 3);
  EXPECT_NE(deep.err.find("nested too deeply"), std::string::npos);
}

TEST(BadInput, TruncatedPrograms) {
  std::string text = test::read_file(test::source_dir() + "/examples/gradient_descent.ad");
  for (std::size_t n = 0; n < text.size(); n += 37) {
    ProcessResult r = run_text(text.substr(0, n), {"--env", "x=4"});
    EXPECT_FALSE(crashed(r)) << "prefix of " << n << " bytes: " << r.err;
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 2 || r.exit_code == 3) << r.exit_code;
  }
}

RC_GTEST_PROP(BadInput, RandomBytesNeverCrash, ()) {
  std::string bytes = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
  ProcessResult r = run_text(bytes);
  RC_ASSERT(!crashed(r));
  RC_ASSERT(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2 || r.exit_code == 3);
}

}  // namespace
}  // namespace adlang
