// adlang run --derivation / adlang trace --derivation: golden derivations (text and JSON) of
// small programs that together use every rule of Figs. 2-5, the LaTeX compiled by pdflatex,
// elision and folding.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "cli/process.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::ProcessResult;

const std::string kDir = "tests/golden/derivation";

ProcessResult adlang_in(const std::string& dir, const std::vector<std::string>& args) {
  return test::run_process(test::adlang_binary(), args, test::source_dir() + "/" + dir);
}

struct Case {
  std::string name;     // golden file stem
  std::string program;  // in tests/golden/derivation
  std::string input;    // --env
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"arith", "arith.ad", "x=0.5"},     {"pairs", "pairs.ad", "x=3"},
      {"cond_false", "cond.ad", "x=0.5"}, {"cond_true", "cond.ad", "x=-1"},
      {"fun", "fun.ad", "x=3"},           {"rd", "rd.ad", "x=0.5"},
      {"nested", "nested.ad", ""},
  };
  return c;
}

std::vector<std::string> args(const std::string& command, const Case& c,
                              const std::vector<std::string>& more) {
  std::vector<std::string> a = {command, c.program, "--derivation"};
  if (!c.input.empty()) a.insert(a.end(), {"--env", c.input});
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

// The "rule, Fig. N" labels of a text derivation.
std::set<std::string> rules_in(const std::string& text) {
  std::set<std::string> out;
  // A label is "[RULE, Fig. N] " with N in 2..5 and RULE the shortest text after the '['
  // on the same line; the scan resumes after a label, as a regex iterator would.
  std::size_t open = text.find('[');
  while (open != std::string::npos) {
    std::size_t fig = text.find(", Fig. ", open + 2);
    std::size_t eol = text.find('\n', open);
    std::size_t n = fig + 7;
    if (fig != std::string::npos && fig < eol && n + 2 < text.size() && text[n] >= '2' &&
        text[n] <= '5' && text[n + 1] == ']' && text[n + 2] == ' ') {
      out.insert(text.substr(open + 1, fig - open - 1) + " (Fig. " + text[n] + ")");
      open = text.find('[', n + 3);
    } else {
      open = text.find('[', open + 1);
    }
  }
  return out;
}

TEST(Derivation, GoldenTextAndJsonCoverEveryRuleOfFigures2To5) {
  std::set<std::string> seen;
  for (const Case& c : cases()) {
    for (const char* command : {"run", "trace"}) {
      ProcessResult text = adlang_in(kDir, args(command, c, {}));
      ASSERT_EQ(text.exit_code, 0) << c.name << " " << command << ": " << text.err;
      test::expect_golden("derivation/" + c.name + "." + command + ".txt", text.out);
      ProcessResult json = adlang_in(kDir, args(command, c, {"--derivation-format", "json"}));
      ASSERT_EQ(json.exit_code, 0) << json.err;
      test::expect_golden("derivation/" + c.name + "." + command + ".json", json.out);
      std::set<std::string> r = rules_in(text.out);
      seen.insert(r.begin(), r.end());
    }
  }
  // Fig. 3's rules for boolean contexts E_bool[...] do not occur in derivations of a term's
  // evaluation: the language has no boolean connectives, so a boolean term is a guard and its
  // redexes are met through the term context `if E_bool then M else N` (docs/teaching.md).
  const std::set<std::string> all = {
      "value (Fig. 2)",   "+ (Fig. 2)",         "op (Fig. 2)",        "let (Fig. 2)",
      "fst (Fig. 2)",     "snd (Fig. 2)",       "if true (Fig. 2)",   "if false (Fig. 2)",
      "letrec (Fig. 2)",  "call (Fig. 2)",      "rd (Fig. 2)",        "pred (Fig. 2)",
      "E[R] (Fig. 3)",    "E[R_bool] (Fig. 3)", "value (Fig. 4)",     "+ (Fig. 4)",
      "op (Fig. 4)",      "let (Fig. 4)",       "fst (Fig. 4)",       "snd (Fig. 4)",
      "if true (Fig. 4)", "if false (Fig. 4)",  "letrec (Fig. 4)",    "call (Fig. 4)",
      "rd (Fig. 4)",      "E[R] (Fig. 5)",      "E[R_bool] (Fig. 5)",
  };
  for (const std::string& rule : all)
    EXPECT_TRUE(seen.count(rule)) << "no golden derivation uses " << rule;
}

TEST(Derivation, TheConclusionIsTheEvaluatorsResult) {
  for (const Case& c : cases()) {
    std::vector<std::string> run = {"run", c.program};
    if (!c.input.empty()) run.insert(run.end(), {"--env", c.input});
    ProcessResult value = adlang_in(kDir, run);
    ProcessResult d = adlang_in(kDir, args("run", c, {}));
    ASSERT_EQ(value.exit_code, 0) << value.err;
    std::string first_line = d.out.substr(0, d.out.find('\n'));
    std::string v = value.out.substr(0, value.out.size() - 1);
    std::size_t at = first_line.find(" => " + v);
    ASSERT_NE(at, std::string::npos) << first_line;
    std::string rest = first_line.substr(at + 4 + v.size());
    EXPECT_TRUE(rest.empty() || rest.rfind("   (where ", 0) == 0) << first_line;
  }
}

// A directory for pdflatex's files under the test temporary directory, named after the test
// and the process; removed at the end of a test that passed, kept after a failure to be read.
class LatexDir {
 public:
  explicit LatexDir(const std::string& stem)
      : path_(testing::TempDir() + stem + "_" + std::to_string(getpid())) {
    std::filesystem::create_directories(path_);
  }
  ~LatexDir() {
    std::error_code ec;
    if (!testing::Test::HasFailure()) std::filesystem::remove_all(path_, ec);
  }
  LatexDir(const LatexDir&) = delete;
  LatexDir& operator=(const LatexDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(Derivation, LatexCompilesWithPdflatex) {
  const LatexDir latex("adlang_latex");
  const std::string& dir = latex.path();
  // Documents that together use every rule's label (both figures' E[R], E[R_bool], if true
  // and if false, pred, fst and snd, rd, letrec and call, interpolation).
  const std::vector<std::pair<std::string, const Case*>> docs = {
      {"cond_true_run", &cases()[3]}, {"cond_false_trace", &cases()[2]},
      {"nested_run", &cases()[6]},    {"fun_trace", &cases()[4]},
      {"pairs_run", &cases()[1]},
  };
  for (const auto& [name, c] : docs) {
    std::string command = name.find("trace") != std::string::npos ? "trace" : "run";
    ProcessResult tex = adlang_in(kDir, args(command, *c, {"--derivation-format", "latex"}));
    ASSERT_EQ(tex.exit_code, 0) << tex.err;
    std::ofstream(dir + "/" + name + ".tex") << tex.out;
    ProcessResult pdf = test::run_process(
        "/usr/bin/pdflatex", {"-interaction=nonstopmode", "-halt-on-error", name + ".tex"}, dir);
    ASSERT_EQ(pdf.exit_code, 0)
        << "pdflatex (Debian: texlive-latex-base, texlive-science; scripts/install-deps.sh "
           "installs them) failed on the derivation "
        << name << ":\n"
        << pdf.out << pdf.err;
    std::ifstream out(dir + "/" + name + ".pdf");
    EXPECT_TRUE(out.good()) << name;
  }
  test::expect_golden(
      "derivation/fun.trace.tex",
      adlang_in(kDir, args("trace", cases()[4], {"--derivation-format", "latex"})).out);
}

// pdflatex's log of `name`.tex compiled in `dir` (which must succeed).
std::string compile_latex(const std::string& dir, const std::string& name, const std::string& tex) {
  std::ofstream(dir + "/" + name + ".tex") << tex;
  ProcessResult pdf = test::run_process(
      "/usr/bin/pdflatex", {"-interaction=nonstopmode", "-halt-on-error", name + ".tex"}, dir);
  EXPECT_EQ(pdf.exit_code, 0) << pdf.out << pdf.err;
  EXPECT_TRUE(std::ifstream(dir + "/" + name + ".pdf").good()) << name;
  return test::read_file(dir + "/" + name + ".log");
}

// Every tree fits the page's text width (16 cm on A4): a wide one is cut into sub-derivations
// D_1, D_2, ... set after it, and a long judgement is broken over lines. The perturbation
// lesson's evaluation was one tree 3001 pt wide; the document reports any tree wider than the
// page on the terminal (its log), and TeX any overfull line.
TEST(Derivation, LatexTreesFitThePageWidth) {
  const LatexDir latex("adlang_wide_latex");
  const std::string& dir = latex.path();
  std::string lesson = test::source_dir() + "/examples/teaching/perturbation.ad";
  for (const std::string command : {"run", "trace"}) {
    SCOPED_TRACE(command);
    ProcessResult tex =
        adlang_in(kDir, {command, lesson, "--derivation", "--derivation-format", "latex"});
    ASSERT_EQ(tex.exit_code, 0) << tex.err;
    if (std::string(command) == "run") {
      EXPECT_NE(tex.out.find("where $\\mathcal{D}_{1}$ is"), std::string::npos)
          << "the tree is cut into sub-derivations";
    }
    std::string log = compile_latex(dir, "perturbation_" + command, tex.out);
    EXPECT_EQ(log.find("wider than the page"), std::string::npos) << log;
    EXPECT_EQ(log.find("Overfull \\hbox"), std::string::npos) << log;
  }
}

// Side conditions are set in mathematics, as the paper writes them.
TEST(Derivation, LatexSideConditionsAreMathematics) {
  ProcessResult tex = adlang_in(kDir, args("trace", cases()[4], {"--derivation-format", "latex"}));
  ASSERT_EQ(tex.exit_code, 0) << tex.err;
  EXPECT_NE(tex.out.find("\\texttt{x\\_1} \\notin \\mathrm{Dom}(\\rho)"), std::string::npos);
  EXPECT_NE(tex.out.find("\\varphi(\\texttt{sq}) = \\mathrm{clo}_{\\varphi'}"), std::string::npos);
  EXPECT_EQ(tex.out.find("not in Dom"), std::string::npos);
}

// A tree deeper than TeX's 255 grouping levels allow in one formula (about 25 levels of
// \inferrule) is cut into sub-derivations every 12 levels, and compiles.
TEST(Derivation, DeepLatexDerivationsCompile) {
  const LatexDir latex("adlang_deep_latex");
  const std::string& dir = latex.path();
  std::string fib = test::source_dir() + "/examples/fib.ad";
  ProcessResult tex =
      adlang_in(kDir, {"run", fib, "--env", "n=6", "--derivation", "--derivation-format", "latex",
                       "--derivation-depth", "100", "--derivation-size", "5000"});
  ASSERT_EQ(tex.exit_code, 0) << tex.err;
  EXPECT_EQ(tex.out.find("judgements shown"), std::string::npos) << "the whole tree is shown";
  EXPECT_NE(tex.out.find("where $\\mathcal{D}_{2}$ is"), std::string::npos)
      << "it is cut into sub-derivations";
  std::string log = compile_latex(dir, "fib", tex.out);
  EXPECT_EQ(log.find("wider than the page"), std::string::npos) << log;
}

TEST(Derivation, LongDerivationsAreElidedAndRecursionFolds) {
  std::string fib = test::source_dir() + "/examples/fib.ad";
  ProcessResult full =
      adlang_in(kDir, {"run", fib, "--env", "n=4", "--derivation", "--derivation-size", "100000"});
  ASSERT_EQ(full.exit_code, 0) << full.err;
  ProcessResult small =
      adlang_in(kDir, {"run", fib, "--env", "n=4", "--derivation", "--derivation-size", "20"});
  ASSERT_EQ(small.exit_code, 0) << small.err;
  EXPECT_NE(small.out.find("judgements elided"), std::string::npos);
  EXPECT_NE(small.out.find("-- 20 of "), std::string::npos) << small.out;
  ProcessResult shallow =
      adlang_in(kDir, {"run", fib, "--env", "n=4", "--derivation", "--derivation-depth", "3"});
  EXPECT_NE(shallow.out.find("judgements elided"), std::string::npos);
  ProcessResult folded = adlang_in(kDir, {"run", fib, "--env", "n=4", "--derivation",
                                          "--fold-recursion", "--derivation-size", "100000"});
  ASSERT_EQ(folded.exit_code, 0) << folded.err;
  EXPECT_NE(folded.out.find("recursive call of fib folded"), std::string::npos);
  EXPECT_LT(folded.out.size(), full.out.size() / 2);
  // The recorder's own bound: an undefined result with the reason, not a crash.
  ProcessResult capped = adlang_in(
      kDir, {"run", fib, "--env", "n=12", "--derivation", "--derivation-max-judgements", "1000"});
  EXPECT_EQ(capped.exit_code, 1);
  EXPECT_NE(capped.err.find("more than 1000 judgements"), std::string::npos) << capped.err;
}

TEST(Derivation, UndefinedProgramsReportTheReason) {
  std::string f = testing::TempDir() + "adlang_deriv_log_" + std::to_string(getpid()) + ".ad";
  std::ofstream(f) << "log(x - 1)\n";
  ProcessResult r = adlang_in(kDir, {"run", f, "--env", "x=1", "--derivation"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("log"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace adlang
