// Every example in examples/ (and every lesson in examples/teaching/) runs with the output its
// header promises. A header line
//   -- $ adlang ARGS        runs `adlang ARGS` in the file's folder (shell-style quoting),
//   -- > TEXT               is a line of the expected standard output (all of it, in order),
//   -- ! exit N             is the expected exit code (default 0),
//   -- ! TEXT               must appear in the standard error.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "cli/process.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

struct ExampleRun {
  std::string command;
  std::string expected_out;
  int expected_exit = 0;
  std::vector<std::string> expected_err;
};

std::vector<ExampleRun> runs_of(const std::string& text) {
  std::vector<ExampleRun> runs;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("-- $ adlang ", 0) == 0) {
      runs.push_back(ExampleRun{line.substr(12), "", 0, {}});
    } else if (!runs.empty() && line.rfind("-- >", 0) == 0) {
      runs.back().expected_out += (line.size() > 5 ? line.substr(5) : "") + "\n";
    } else if (!runs.empty() && line.rfind("-- ! exit ", 0) == 0) {
      runs.back().expected_exit = std::stoi(line.substr(10));
    } else if (!runs.empty() && line.rfind("-- ! ", 0) == 0) {
      runs.back().expected_err.push_back(line.substr(5));
    }
  }
  return runs;
}

class Examples : public ::testing::TestWithParam<std::string> {};

// The folder of example `name` (runs name the file relative to it) and the example's text.
std::string example_dir(const std::string& name) {
  return std::filesystem::path(test::source_dir() + "/examples/" + name).parent_path().string();
}

TEST_P(Examples, RunAsDocumented) {
  // A lesson in examples/teaching/ runs in its own folder.
  std::filesystem::path file = std::filesystem::path(test::source_dir()) / "examples" / GetParam();
  std::string dir = file.parent_path().string();
  std::string text = test::read_file(file.string());
  std::vector<ExampleRun> runs = runs_of(text);
  ASSERT_FALSE(runs.empty()) << GetParam() << " documents no run";
  for (const ExampleRun& r : runs) {
    test::ProcessResult p =
        test::run_process(test::adlang_binary(), test::split_command_line(r.command), dir);
    EXPECT_EQ(p.exit_code, r.expected_exit) << "adlang " << r.command << "\n" << p.err;
    EXPECT_EQ(p.out, r.expected_out) << "adlang " << r.command;
    for (const std::string& e : r.expected_err)
      EXPECT_NE(p.err.find(e), std::string::npos) << "adlang " << r.command << "\n" << p.err;
  }
}

// The same documented runs on the tagged dataflow graph: the same output, exit code and
// messages (the dynamic engine and threads are checked against the compiled evaluator by the
// graph-agrees property and the thesis's programs in tests/semantics/graph). Runs the graph engines
// refuse (another precision, the limited language of --unfold) must say so with a usage error.
TEST_P(Examples, RunAsDocumentedOnTheGraph) {
  std::string dir = example_dir(GetParam());
  std::string text = test::read_file(test::source_dir() + "/examples/" + GetParam());
  for (const ExampleRun& r : runs_of(text)) {
    if (r.command.rfind("run ", 0) != 0 || r.command.find("--engine") != std::string::npos)
      continue;
    bool refused = r.command.find("--unfold") != std::string::npos ||
                   (r.command.find("--precision") != std::string::npos &&
                    r.command.find("--precision double") == std::string::npos);
    for (const char* engine : {"graph"}) {
      std::string command = r.command + " --engine " + engine;
      test::ProcessResult p =
          test::run_process(test::adlang_binary(), test::split_command_line(command), dir);
      if (refused) {
        EXPECT_EQ(p.exit_code, 2) << "adlang " << command << "\n" << p.err;
        continue;
      }
      EXPECT_EQ(p.exit_code, r.expected_exit) << "adlang " << command << "\n" << p.err;
      EXPECT_EQ(p.out, r.expected_out) << "adlang " << command;
      for (const std::string& e : r.expected_err)
        EXPECT_NE(p.err.find(e), std::string::npos) << "adlang " << command << "\n" << p.err;
    }
  }
}

std::vector<std::string> example_files() {
  std::vector<std::string> files;
  std::filesystem::path root = std::filesystem::path(test::source_dir()) / "examples";
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.path().extension() == ".ad")
      files.push_back(std::filesystem::relative(e.path(), root).string());
  std::sort(files.begin(), files.end());
  return files;
}

INSTANTIATE_TEST_SUITE_P(AllExamples, Examples, ::testing::ValuesIn(example_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param.substr(0, info.param.size() - 3);
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace adlang
