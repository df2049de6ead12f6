// The `pyrewrite` subcommand, run in-process: output modes, exit codes, atomic writes, directory
// arguments.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/pyrewrite_command.hpp"
#include "golden.hpp"

namespace adlang::test {
namespace {

namespace fs = std::filesystem;

struct CliRun {
  int code;
  std::string out, err;
};

CliRun run(std::vector<std::string> args) {
  args.insert(args.begin(), {"adlang", "pyrewrite"});
  std::vector<char*> argv;
  for (std::string& a : args)
    argv.push_back(a.data());
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  CLI::App app{"adlang"};
  int code = 0;
  cli::register_pyrewrite_command(app, code);
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    code = app.exit(e, out, err) == 0 ? 0 : 2;
  }
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {code, out.str(), err.str()};
}

std::string example(const std::string& name) {
  return source_dir() + "/examples/python/" + name;
}

class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("adlang-pyrewrite-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) +
             "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& n) const { return (path_ / n).string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

TEST(PyrewriteCli, PrintsTheRewrittenScript) {
  CliRun r = run({example("keras_mnist.py")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, read_file(source_dir() + "/tests/python/golden/e2e/keras_mnist.after.py"));
}

// Golden files must not depend on where the repository is checked out.
std::string without_source_dir(std::string text) {
  const std::string dir = source_dir();
  for (std::size_t at = text.find(dir); at != std::string::npos; at = text.find(dir, at))
    text.replace(at, dir.size(), "<source>");
  return text;
}

TEST(PyrewriteCli, DiffIsAUnifiedDiff) {
  CliRun r = run({example("tape_regression.py"), "--diff"});
  EXPECT_EQ(r.code, 0) << r.err;
  expect_golden(source_dir() + "/tests/python/golden/cli/tape_regression.diff",
                without_source_dir(r.out));
}

TEST(PyrewriteCli, ExplainListsTheRulesWithSections) {
  CliRun r = run({example("session_mnist.py"), "--explain", "--diff"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.err.find("pattern session (Sec. 2.5)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(":23:1: trans_S: config (ConfigProto pinning the GPU) (Sec. 2.5)"),
            std::string::npos)
      << r.err;
}

TEST(PyrewriteCli, JsonForTooling) {
  CliRun r = run({example("monitored_train.py"), "--json", "--explain"});
  EXPECT_EQ(r.code, 0);
  expect_golden(source_dir() + "/tests/python/golden/cli/monitored_train.json",
                without_source_dir(r.out));
}

TEST(PyrewriteCli, PatternOverridesIdentification) {
  CliRun r =
      run({source_dir() + "/tests/python/golden/diagnostics/two_loops.py", "--pattern", "tape"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("hvd.DistributedGradientTape(tape)"), std::string::npos);
  CliRun auto_ = run({source_dir() + "/tests/python/golden/diagnostics/two_loops.py"});
  EXPECT_EQ(auto_.code, 3);
  EXPECT_NE(auto_.err.find("two_loops.py:7:6: error: restriction 3.1.3"), std::string::npos)
      << auto_.err;
}

TEST(PyrewriteCli, SyntaxErrorExitsWith3) {
  CliRun r = run({source_dir() + "/tests/python/golden/diagnostics/syntax_error.py"});
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("syntax_error.py:3:7: error: syntax error:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("  def f(:\n        ^\n"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(PyrewriteCli, UsageErrorsExitWith2) {
  EXPECT_EQ(run({"/nonexistent/train.py"}).code, 2);
  EXPECT_EQ(run({example("keras_mnist.py"), "--pattern", "pytorch"}).code, 2);
  EXPECT_EQ(run({example("keras_mnist.py"), "--no-such-flag"}).code, 2);
  EXPECT_EQ(run({}).code, 2);
  EXPECT_EQ(run({example("keras_mnist.py"), "--in-place", "-o", "x.py"}).code, 2);
}

TEST(PyrewriteCli, OutputFileIsWrittenAndInputUntouched) {
  TempDir d;
  std::string in = d / "train.py", out = d / "train_hvd.py";
  std::string text = read_file(example("tape_regression.py"));
  write_file(in, text);
  CliRun r = run({in, "-o", out});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_file(in), text);
  EXPECT_EQ(read_file(out),
            read_file(source_dir() + "/tests/python/golden/e2e/tape_regression.after.py"));
  // No temporary file is left behind.
  int files = 0;
  for (const auto& e : fs::directory_iterator(d.path()))
    files += e.is_regular_file();
  EXPECT_EQ(files, 2);
}

TEST(PyrewriteCli, InPlaceRewritesTheInput) {
  TempDir d;
  std::string in = d / "train.py";
  write_file(in, read_file(example("session_assigned.py")));
  fs::permissions(in, fs::perms::owner_read | fs::perms::owner_write | fs::perms::owner_exec);
  CliRun r = run({in, "--in-place"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(in),
            read_file(source_dir() + "/tests/python/golden/e2e/session_assigned.after.py"));
  EXPECT_TRUE((fs::status(in).permissions() & fs::perms::owner_exec) != fs::perms::none);
}

TEST(PyrewriteCli, UnchangedScriptsSayWhy) {
  CliRun r = run({source_dir() + "/tests/python/golden/diagnostics/no_tensorflow.py"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.err.find("does not import TensorFlow"), std::string::npos);
  EXPECT_EQ(r.out, read_file(source_dir() + "/tests/python/golden/diagnostics/no_tensorflow.py"));
  CliRun e = run({source_dir() + "/tests/python/golden/diagnostics/empty.py"});
  EXPECT_EQ(e.code, 0);
  EXPECT_NE(e.err.find("empty"), std::string::npos);
  CliRun nu = run({source_dir() + "/tests/python/golden/diagnostics/not_utf8.py"});
  EXPECT_EQ(nu.code, 3);
  EXPECT_NE(nu.err.find("not_utf8.py:2:12: error: the script is not valid UTF-8"),
            std::string::npos)
      << nu.err;
}

TEST(PyrewriteCli, DirectoryRewritesTheScriptWithTheTrainingLoop) {
  TempDir d;
  fs::create_directories(d.path() / "pkg");
  write_file(d / "pkg/model.py",
             read_file(source_dir() + "/tests/python/golden/diagnostics/no_training_loop.py"));
  write_file(d / "pkg/util.py", "def helper():\n    return 1\n");
  write_file(d / "train.py", read_file(example("keras_mnist.py")));
  TempDir o;
  CliRun r = run({d.path().string(), "-o", o.path().string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("pkg/model.py: unchanged (no training loop)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("pkg/util.py: unchanged (no training loop)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("train.py: holds the training loop (keras)"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(o / "train.py"),
            read_file(source_dir() + "/tests/python/golden/e2e/keras_mnist.after.py"));
  EXPECT_FALSE(fs::exists(o / "pkg/model.py"));
}

TEST(PyrewriteCli, DirectoryWithTwoTrainingScriptsIsAnError) {
  TempDir d;
  write_file(d / "a.py", read_file(example("keras_mnist.py")));
  write_file(d / "b.py", read_file(example("tape_regression.py")));
  CliRun r = run({d.path().string()});
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("restriction 3.1.1"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace adlang::test
