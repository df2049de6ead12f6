// The adlang executable: subcommands, output formats, exit codes (docs/design.md Sec. 8).
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "cli/process.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::ProcessResult;

ProcessResult adlang(const std::vector<std::string>& args) {
  return test::run_process(test::adlang_binary(), args, test::source_dir() + "/examples");
}

// A file private to this test process (ctest runs tests in parallel).
std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + "adlang_" + std::to_string(getpid()) + "_" +
                     testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(Cli, RunPrintsTheValue) {
  ProcessResult r = adlang({"run", "syntax_tour.ad", "--env", "x0=0.7"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "(21.65897351027958, *)\n");
}

TEST(Cli, RunJson) {
  ProcessResult r = adlang({"run", "dot_gradient.ad", "--env", "v=(1, 2, 3)", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"value\": [[[1, 2], 3], [[2, 4], 6]], \"text\": \"(1, 2, 3, (2, 4, 6))\", "
            "\"type\": \"real^3 * real^3\", \"calls\": 0}\n");
}

TEST(Cli, PrecisionFlag) {
  std::string f = write_temp("third.ad", "1 / 3");
  EXPECT_EQ(adlang({"run", f, "--precision", "50"}).out,
            "0.333333333333333333333333333333333333333333333333334\n");
  EXPECT_EQ(adlang({"run", f, "--precision", "exact"}).out, "1/3\n");
  EXPECT_EQ(adlang({"run", f, "--precision", "100"}).out.size(), 104u);  // 101 digits
}

TEST(Cli, ExactPrecisionRefusesNonPolynomialPrograms) {
  std::string f = write_temp("sin.ad", "1 + sin(1)");
  ProcessResult r = adlang({"run", f, "--precision", "exact"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("sin.ad:1:5: error: 'sin' is outside the polynomial fragment"),
            std::string::npos)
      << r.err;
}

// `adlang fmt X.py > X.ad && adlang run X.ad` with the inputs the printed comments list gives
// the script's value: the pragma line carries the script's total predicates.
TEST(Cli, FmtOfPythonRunsAsTheScript) {
  ProcessResult script = adlang({"run", "thesis/fac.py"});
  ASSERT_EQ(script.exit_code, 0) << script.err;
  ProcessResult printed = adlang({"fmt", "thesis/fac.py"});
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_EQ(printed.out.rfind("-- pragma: predicates total\n", 0), 0u) << printed.out;
  std::string f = write_temp("fac.ad", printed.out);
  std::vector<std::string> args{"run", f};
  std::istringstream lines(printed.out);
  for (std::string line; std::getline(lines, line);) {
    // -- input n = 5 (the script's feed_dict)
    std::istringstream words(line);
    std::string dashes, input, name, eq, value;
    if (words >> dashes >> input >> name >> eq >> value && input == "input" && eq == "=")
      args.insert(args.end(), {"--env", name + "=" + value});
  }
  ASSERT_EQ(args.size(), 4u) << printed.out;
  ProcessResult run = adlang(args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, script.out);
  // Without the pragma's predicates, fac's n <= 1 is undefined at the tie n = 1.
  args.insert(args.end(), {"--predicates", "strict"});
  EXPECT_EQ(adlang(args).exit_code, 1);
}

TEST(Cli, TracePrintsTheTraceTerm) {
  std::string f = write_temp("tr.ad", "def f(x: real): real = x * sin(x);\nf(y) + y");
  ProcessResult r = adlang({"trace", f, "--env", "y=0.5"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  test::expect_golden("cli/trace.txt", r.out);
  ProcessResult p = adlang({"trace", f, "--env", "y=0.5", "--style", "paper"});
  test::expect_golden("cli/trace_paper.txt", p.out);
}

TEST(Cli, DiffPrintsTraceDerivativeAndValue) {
  std::string f = write_temp("df.ad", "def f(x: real): real = x * sin(x);\nf(y) + y");
  ProcessResult r = adlang({"diff", f, "--env", "y=0.5", "--wrt", "y"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  test::expect_golden("cli/diff.txt", r.out);  // the linear R, the default
  ProcessResult p = adlang({"diff", f, "--env", "y=0.5", "--wrt", "y", "--ad=paper"});
  EXPECT_EQ(p.exit_code, 0) << p.err;
  test::expect_golden("cli/diff_paper.txt", p.out);  // Fig. 6 literally
}

TEST(Cli, DiffNeedsADirectionForNonRealResults) {
  std::string f = write_temp("dp.ad", "(x, x * x)");
  ProcessResult r = adlang({"diff", f, "--env", "x=3", "--wrt", "x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("give a cotangent of that type with --dir"), std::string::npos);
  ProcessResult d = adlang({"diff", f, "--env", "x=3", "--wrt", "x", "--dir", "(1, 1)", "--json"});
  EXPECT_EQ(d.exit_code, 0) << d.err;
  EXPECT_NE(d.out.find("\"text\": \"7\""), std::string::npos) << d.out;
}

TEST(Cli, DiffWrtMustBeAnInput) {
  std::string f = write_temp("dw.ad", "x * x");
  ProcessResult r = adlang({"diff", f, "--env", "x=3", "--wrt", "y"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--wrt y: the program has no input of that name"), std::string::npos);
}

TEST(Cli, FmtPrintsTheProgramBack) {
  std::string f = write_temp("fmt.ad", "let (a:real,b:real)=p in a*b--comment\n");
  ProcessResult r = adlang({"fmt", f});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "let (a: real, b: real) = p in\na * b\n");
}

// adlang fmt --after: the program after each front-end step.
TEST(Cli, FmtAfterEachFrontEndStep) {
  ProcessResult parsed = adlang({"fmt", "syntax_tour.ad", "--after", "parse"});
  EXPECT_EQ(parsed.exit_code, 0) << parsed.err;
  EXPECT_EQ(parsed.out, adlang({"fmt", "syntax_tour.ad"}).out);
  ProcessResult core = adlang({"fmt", "syntax_tour.ad", "--after", "desugar"});
  EXPECT_EQ(core.exit_code, 0) << core.err;
  test::expect_golden("fmt/syntax_tour.desugar.ad", core.out);
  ProcessResult resolved = adlang({"fmt", "mutual_recursion.ad", "--after", "resolve"});
  EXPECT_EQ(resolved.exit_code, 0) << resolved.err;
  test::expect_golden("fmt/mutual_recursion.resolve.ad", resolved.out);
  // Inputs are reals unless --env gives a value of another type.
  ProcessResult typed =
      adlang({"fmt", "dot_gradient.ad", "--after", "desugar", "--env", "v=(1, 2, 3)"});
  EXPECT_EQ(typed.exit_code, 0) << typed.err;
  EXPECT_EQ(adlang({"fmt", "dot_gradient.ad", "--after", "desugar"}).exit_code, 3);
  EXPECT_EQ(adlang({"fmt", "fib.ad", "--after", "parse", "--env", "n=1"}).exit_code, 2);
  EXPECT_EQ(adlang({"fmt", "fib.ad", "--after", "lower"}).exit_code, 2);
}

// The desugared core is a program: it parses back and runs to the same value.
TEST(Cli, FmtAfterDesugarRunsToTheSameValue) {
  ProcessResult core = adlang({"fmt", "syntax_tour.ad", "--after", "desugar"});
  ASSERT_EQ(core.exit_code, 0) << core.err;
  std::string f = write_temp("core.ad", core.out);
  EXPECT_EQ(adlang({"run", f, "--env", "x0=0.7"}).out,
            adlang({"run", "syntax_tour.ad", "--env", "x0=0.7"}).out);
}

// Underflow rounds to 0 (docs/semantics.md); a domain error at 0 says it may be underflow.
TEST(Cli, DomainErrorAtZeroMentionsUnderflow) {
  std::string f = write_temp("underflow.ad", "log(exp(-1000))\n");
  ProcessResult r = adlang({"run", f});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("log(x) is undefined at x = 0"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("underflowed to 0"), std::string::npos) << r.err;
  ProcessResult p50 = adlang({"run", f, "--precision", "50"});
  EXPECT_EQ(p50.exit_code, 0) << p50.err;
  EXPECT_EQ(p50.out, "-1000\n");
}

// The property registry as `adlang check --list` shows it: every property with its family,
// source, what it checks and its generator, the engines among them (golden file).
TEST(Cli, CheckListShowsTheRegistry) {
  ProcessResult r = adlang({"check", "--list"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  test::expect_golden("cli/check_list.txt", r.out);
  EXPECT_NE(r.out.find("compiled-agrees"), std::string::npos);
  EXPECT_NE(r.out.find("tape-agrees"), std::string::npos);
}

// `adlang check FILE`: the properties on one program at its inputs. A Python program runs under
// TensorFlow's and Python's total comparisons, and its conventional derivative of the identity
// `0.0 if x == 0 else x` at 0 is 0: finite-differences shows where that differs from the
// mathematics (exit 4); elsewhere, or under the paper's strict predicates, nothing fails.
TEST(Cli, CheckOneProgramShowsWhereTheConventionalDerivativeDiffers) {
  std::string f = write_temp("identity.py",
                             "def f(x):\n    return 0.0 if x == 0 else x\n\n"
                             "print(f(x))\n");
  ProcessResult r = adlang({"check", f, "--env", "x=0", "--property", "finite-differences"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_EQ(r.out.rfind("finite-differences    FAIL: with respect to x at V = 0", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("central differences give"), std::string::npos) << r.out;
  r = adlang({"check", f, "--env", "x=0.5", "--property", "finite-differences"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "finite-differences    pass\n");
  r = adlang({"check", f, "--env", "x=0", "--predicates", "strict", "--property",
              "finite-differences", "--property", "r-derivative"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "finite-differences    both undefined\nr-derivative          both undefined\n");
  r = adlang({"check", f, "--env", "x=0.5"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("graph-agrees          pass"), std::string::npos) << r.out;
  r = adlang({"check", f, "--property", "nope"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown property 'nope'"), std::string::npos) << r.err;
  // The options of random programs are refused with one program, --env without it.
  for (const char* option : {"--count", "--seed", "--max-size", "--jobs"}) {
    r = adlang({"check", f, "--env", "x=0.5", option, "5"});
    EXPECT_EQ(r.exit_code, 2) << option;
    EXPECT_NE(r.err.find(std::string(option) + " excludes FILE"), std::string::npos) << r.err;
  }
  r = adlang({"check", f, "--env", "x=0.5", "--shard", "0/2"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = adlang({"check", "--env", "x=0.5"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--env requires FILE"), std::string::npos) << r.err;
}

TEST(Cli, HelpOnEverySubcommand) {
  for (const char* cmd : {"run", "trace", "diff", "fmt"}) {
    ProcessResult r = adlang({cmd, "--help"});
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << cmd;
  }
  EXPECT_EQ(adlang({"--help"}).exit_code, 0);
  EXPECT_EQ(adlang({"--version"}).out, "adlang 0.1.0\n");
}

TEST(Cli, UsageErrorsExitWith2) {
  EXPECT_EQ(adlang({}).exit_code, 2);
  EXPECT_EQ(adlang({"frobnicate"}).exit_code, 2);
  EXPECT_EQ(adlang({"run"}).exit_code, 2);
  EXPECT_EQ(adlang({"run", "fib.ad", "--precision", "7"}).exit_code, 2);
  EXPECT_EQ(adlang({"run", "fib.ad", "--env", "n"}).exit_code, 2);
  EXPECT_EQ(adlang({"run", "fib.ad", "--env", "n=3", "--env", "m=1"}).exit_code, 2);
}

TEST(Cli, ErrorsAsJson) {
  std::string f = write_temp("ej.ad", "log(x)");
  ProcessResult r = adlang({"run", f, "--env", "x=0", "--json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("{\"error\": {\"kind\": \"undefined\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"line\": 1, \"col\": 1"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace adlang
