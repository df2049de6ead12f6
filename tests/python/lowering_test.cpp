// The Python front end (lang/python/lower, docs/python.md). Golden files in golden/lower/: each
// construct's .py next to the .ad text it lowers to, each refused construct's .py next to its
// diagnostic (.err). Every lowered program parses back and type-checks; the plain programs
// print what CPython prints for them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "cli/process.hpp"
#include "lang/diagnostics.hpp"
#include "lang/parser.hpp"
#include "lang/python/lower/python_lowering.hpp"
#include "lang/type_checker.hpp"
#include "support/address_sanitizer.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

const std::string kGoldenDir = "/tests/python/golden/lower";

std::vector<std::string> python_files(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(test::source_dir() + dir))
    if (e.path().extension() == ".py") files.push_back(e.path().stem().string());
  std::sort(files.begin(), files.end());
  return files;
}

// expect_golden reads tests/golden/<name>; these goldens live beside their inputs.
std::string golden_name(const std::string& dir, const std::string& file) {
  return ".." + dir.substr(std::string("/tests").size()) + "/" + file;
}

SourceFile source(const std::string& dir, const std::string& stem) {
  std::string path = test::source_dir() + dir + "/" + stem + ".py";
  return SourceFile(stem + ".py", test::read_file(path));
}

class LoweredConstruct : public ::testing::TestWithParam<std::string> {};

TEST_P(LoweredConstruct, MatchesGoldenAndTypeChecks) {
  SourceFile file = source(kGoldenDir, GetParam());
  py::LoweredPython lowered = py::lower_python(file);
  std::string text = py::print_lowered(lowered);
  test::expect_golden(golden_name(kGoldenDir, GetParam() + ".ad"), text);
  // What `adlang fmt` prints is a program of the language: it parses and type-checks, with
  // its inputs real.
  SyntaxProgram reparsed = parse_program(text);
  std::vector<TypedName> inputs;
  for (Name x : program_inputs(reparsed))
    inputs.push_back(TypedName{x, Type::real()});
  NameSupply names;
  for (Name n : reparsed.identifiers)
    names.reserve(n);
  EXPECT_NO_THROW(check_program(reparsed, inputs, names)) << text;
}

INSTANTIATE_TEST_SUITE_P(PythonLowering, LoweredConstruct,
                         ::testing::ValuesIn(python_files(kGoldenDir)));

class RefusedConstruct : public ::testing::TestWithParam<std::string> {};

TEST_P(RefusedConstruct, IsReportedAtItsLocation) {
  const std::string dir = kGoldenDir + "/refused";
  SourceFile file = source(dir, GetParam());
  std::string rendered;
  try {
    py::lower_python(file);
    FAIL() << GetParam() << ".py was lowered";
  } catch (const CompileError& e) {
    ASSERT_TRUE(e.diagnostic().loc.known()) << e.what();
    rendered = render(e.diagnostic(), &file);
  }
  test::expect_golden(golden_name(dir, GetParam() + ".err"), rendered);
}

INSTANTIATE_TEST_SUITE_P(PythonLowering, RefusedConstruct,
                         ::testing::ValuesIn(python_files(kGoldenDir + "/refused")));

// Programs without inputs print, under `adlang run`, what `python3` prints, byte for byte:
// the golden lowerings, and the programs of golden/print/ (one per rule of the printed value's
// kind: int, float, bool, tuples, recursion, loops, math, division, floor division, modulo
// with negatives, **).
void expect_prints_what_cpython_prints(const std::string& dir, int at_least) {
  int compared = 0;
  for (const std::string& stem : python_files(dir)) {
    std::string path = test::source_dir() + dir + "/" + stem + ".py";
    std::string text = test::read_file(path);
    if (text.find("tensorflow") != std::string::npos) continue;
    py::LoweredPython lowered = py::lower_python(SourceFile(path, text));
    if (!program_inputs(lowered.program).empty()) continue;
    test::ProcessResult cpython = test::run_process("/usr/bin/python3", {path});
    test::ProcessResult ours = test::run_process(test::adlang_binary(), {"run", path});
    ASSERT_EQ(cpython.exit_code, 0) << cpython.err;
    ASSERT_EQ(ours.exit_code, 0) << ours.err;
    EXPECT_EQ(ours.out, cpython.out) << stem;
    ++compared;
  }
  EXPECT_GE(compared, at_least);
}

TEST(PythonLowering, PlainProgramsPrintWhatCPythonPrints) {
  expect_prints_what_cpython_prints(kGoldenDir, 5);
}

const std::string kPrintDir = "/tests/python/golden/print";

TEST(PythonPrinting, ProgramsPrintWhatCPythonPrints) {
  expect_prints_what_cpython_prints(kPrintDir, 20);
}

// A printed value whose kind depends on the path is refused by `run` at the printed
// expression, before the program runs (exit 3).
class PrintRefused : public ::testing::TestWithParam<std::string> {};

TEST_P(PrintRefused, IsReportedAtThePrint) {
  const std::string dir = kPrintDir + "/refused";
  test::ProcessResult p = test::run_process(test::adlang_binary(), {"run", GetParam() + ".py"},
                                            test::source_dir() + dir);
  EXPECT_EQ(p.exit_code, 3) << p.err;
  EXPECT_EQ(p.out, "");
  test::expect_golden(golden_name(dir, GetParam() + ".err"), p.err);
}

INSTANTIATE_TEST_SUITE_P(PythonPrinting, PrintRefused,
                         ::testing::ValuesIn(python_files(kPrintDir + "/refused")));

// TensorFlow scripts (python3 here has no TensorFlow): what TensorFlow 1 prints, a numpy
// scalar or a list of them, in golden files.
class TensorFlowPrint : public ::testing::TestWithParam<std::string> {};

TEST_P(TensorFlowPrint, PrintsWhatTensorFlowPrints) {
  const std::string dir = kPrintDir + "/tensorflow";
  test::ProcessResult p = test::run_process(test::adlang_binary(), {"run", GetParam() + ".py"},
                                            test::source_dir() + dir);
  EXPECT_EQ(p.exit_code, 0) << p.err;
  test::expect_golden(golden_name(dir, GetParam() + ".out"), p.out);
}

INSTANTIATE_TEST_SUITE_P(PythonPrinting, TensorFlowPrint,
                         ::testing::ValuesIn(python_files(kPrintDir + "/tensorflow")));

}  // namespace
}  // namespace adlang

namespace adlang {
namespace {

// Appendix B's tf.device blocks become placements of the lines they hold, on the task's rank.
TEST(ThesisPrograms, DeviceBlocksArePlacements) {
  std::string path = test::source_dir() + "/examples/thesis/fac.py";
  py::LoweredPython lowered = py::lower_python(SourceFile(path, test::read_file(path)));
  std::vector<std::string> place;
  for (const py::Placement& p : lowered.placements)
    for (const std::string& o : p.place_options())
      place.push_back(o);
  EXPECT_EQ(place, (std::vector<std::string>{"fac:16=0", "fac:20=1", "fac:23=1"}));
  ASSERT_EQ(lowered.defaults.size(), 1u);
  EXPECT_EQ(lowered.defaults[0].name.str() + "=" + lowered.defaults[0].value, "n=5");
}

// The evaluators whose depth of recursion on the machine stack follows the program's: the
// reference one (run --unfold) and the denotational one (den).
bool recurses_on_the_stack(const std::vector<std::string>& engine) {
  return engine[0] == "den" || (engine.size() > 1 && engine[1] == "--unfold");
}

struct ThesisRun {
  std::string file;
  std::vector<std::string> env;
  std::string value;
};

// The thesis's scripts (examples/thesis, Appendices B and C as printed) give its values
// (Tables 6.1-6.4, Appendix B) under every evaluator: the compiled one (run), the reference
// one in the limited language of Fig. 8 (run --unfold), the denotational one (den), and the
// tagged dataflow graph, static (at 1 and 2 threads) and dynamic.
TEST(ThesisPrograms, GiveTheThesisValuesUnderEveryEngine) {
  const std::vector<ThesisRun> runs = {
      {"fac.py", {}, "120"}, {"fib.py", {}, "75025"},
      {"ack.py", {}, "9"},   {"ack.py", {"--env", "m=3", "--env", "n=3"}, "61"},
      {"tak.py", {}, "9"},   {"primes.py", {}, "42209"},
  };
  const std::vector<std::vector<std::string>> engines = {
      {"run"},
      {"run", "--unfold", "100000"},
      {"den"},
      {"run", "--engine", "graph"},
      {"run", "--engine", "graph", "--threads", "2"},
      {"run", "--engine", "graph-dynamic"}};
  std::string dir = test::source_dir() + "/examples/thesis";
  for (const ThesisRun& r : runs) {
    for (const auto& engine : engines) {
      std::vector<std::string> args = engine;
      args.push_back(r.file);
      args.insert(args.end(), r.env.begin(), r.env.end());
      std::string value = r.value;
      if (kAddressSanitizer && r.file == "primes.py" && recurses_on_the_stack(engine)) {
        // primes(7500) recurses about 25000 calls deep; the reference and denotational
        // evaluators follow that recursion on the machine stack, which AddressSanitizer
        // limits to 64 MiB (support/stack.hpp) and inflates with redzones. The sanitizer build
        // checks them on primes(300), about a quarter of the depth at which that stack runs out;
        // the release build checks every engine on the thesis's primes(7500).
        args.insert(args.end(), {"--env", "n=300"});
        value = "1349";
      }
      test::ProcessResult p = test::run_process(test::adlang_binary(), args, dir);
      std::string how;
      for (const std::string& a : engine)
        how += a + " ";
      EXPECT_EQ(p.exit_code, 0) << how << r.file << "\n" << p.err;
      EXPECT_EQ(p.out, value + "\n") << how << r.file;
    }
  }
}

}  // namespace
}  // namespace adlang
