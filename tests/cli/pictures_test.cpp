// Pictures: adlang trace --format dot|svg|png (golden DOT and SVG with values and adjoints,
// the program's names, operands' order), adlang plot (a valid SVG whose sampled values match
// adlang run at the same points; central differences only where they estimate a derivative)
// and adlang graph (no inputs needed, parameter names, a legend).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "cli/process.hpp"
#include "support/test_support.hpp"
#include "viz/function_plot.hpp"

namespace adlang {
namespace {

using test::ProcessResult;

ProcessResult adlang(const std::vector<std::string>& args) {
  return test::run_process(test::adlang_binary(), args, test::source_dir() + "/examples/teaching");
}

std::string temp_path(const std::string& name) {
  return testing::TempDir() + "adlang_pic_" + std::to_string(getpid()) + "_" +
         testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + name;
}

std::string write_temp(const std::string& name, const std::string& text) {
  std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The full adjoint of the node named `name`, from its tooltip ("NAME\nvalue V\nadjoint A",
// the label showing A to 4 significant digits).
std::string adjoint_in_dot(const std::string& dot, const std::string& name) {
  const std::string head = "tooltip=\"" + name + "\\nvalue ";
  std::size_t at = dot.find(head);
  if (at == std::string::npos) return "";
  const std::string adjoint = "\\nadjoint ";
  std::size_t start = dot.find(adjoint, at);
  std::size_t end = dot.find('"', at + head.size());
  if (start == std::string::npos || start > end) return "";
  start += adjoint.size();
  return dot.substr(start, end - start);
}

// The labels of the DOT's nodes (label="..."), in order.
std::vector<std::string> labels_in_dot(const std::string& dot) {
  std::vector<std::string> out;
  for (std::size_t at = dot.find(" label=\""); at != std::string::npos;
       at = dot.find(" label=\"", at + 1)) {
    std::size_t start = at + 8, end = dot.find('"', start);
    out.push_back(dot.substr(start, end - start));
  }
  return out;
}

TEST(TracePicture, GoldenDotWithValuesAndAdjoints) {
  ProcessResult r =
      adlang({"trace", "chain_rule.ad", "--env", "x=0.5", "--format", "dot", "--wrt", "x"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  test::expect_golden("pictures/chain_rule.dot", r.out);
  // The input's adjoint is the derivative adlang diff computes, in full in its tooltip and
  // to 4 significant digits on the picture.
  ProcessResult d = adlang({"diff", "chain_rule.ad", "--env", "x=0.5", "--wrt", "x"});
  std::string value = d.out.substr(d.out.rfind("-- value:\n") + 10);
  EXPECT_EQ(adjoint_in_dot(r.out, "x") + "\n", value);
  EXPECT_EQ(value, "0.7318601701098453\n");
  EXPECT_NE(r.out.find("label=\"{ x | value 0.5 | adjoint 0.7319 }\""), std::string::npos);
  // The result's adjoint is the cotangent.
  std::size_t result = r.out.find("penwidth=2");
  ASSERT_NE(result, std::string::npos);
  std::string line = r.out.substr(result, r.out.find('\n', result) - result);
  EXPECT_NE(line.find("| adjoint 1 }\""), std::string::npos) << line;
  // Top to bottom.
  EXPECT_EQ(r.out.find("rankdir"), std::string::npos);
}

// The SVG Graphviz draws of that graph (this machine's Graphviz and fonts: Debian 12's), with
// each value's full digits in its node's tooltip.
TEST(TracePicture, GoldenSvg) {
  std::string svg = temp_path("chain_rule.svg");
  ProcessResult r = adlang(
      {"trace", "chain_rule.ad", "--env", "x=0.5", "--format", "svg", "--wrt", "x", "-o", svg});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string text = test::read_file(svg);
  test::expect_golden("pictures/chain_rule.svg", text);
  EXPECT_NE(text.find("xlink:title=\"x&#10;value 0.5&#10;adjoint 0.7318601701098453\""),
            std::string::npos);
  EXPECT_NE(text.find(">adjoint 0.7319<"), std::string::npos);
}

TEST(TracePicture, SharedSubtermsAreDrawnOnce) {
  std::string f = write_temp("shared.ad", "let y: real = x * x in sin(y) + y");
  ProcessResult r = adlang({"trace", f, "--env", "x=3", "--format", "dot", "--wrt", "x"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  test::expect_golden("pictures/shared.dot", r.out);
  // y = x * x is one node (one "*" operation, named by the program's y) with two consumers;
  // its adjoint is d(sin y + y)/dy = cos 9 + 1.
  std::size_t muls = 0;
  for (std::size_t at = r.out.find("label=\"*\""); at != std::string::npos;
       at = r.out.find("label=\"*\"", at + 1))
    ++muls;
  EXPECT_EQ(muls, 1u);
  EXPECT_EQ(adjoint_in_dot(r.out, "y"), "0.08886973811532306");
}

// Labels name values by the program's names only: a parameter is named as the definition
// names it, and the trace's fresh names (x_1, t_2) and renamings (x_7) never show.
TEST(TracePicture, LabelsShowTheProgramsNamesOnly) {
  std::string f = write_temp("calls.ad",
                             "def sq(y: real): real = y * y;\n"
                             "let s: real = sq(x) in s + sq(s + 1)");
  ProcessResult r = adlang({"trace", f, "--env", "x=0.5", "--format", "dot", "--wrt", "x"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> labels = labels_in_dot(r.out);
  bool named_s = false, named_y = false;
  for (const std::string& l : labels) {
    EXPECT_EQ(l.find('_'), std::string::npos) << l;  // no x_1, t_2, y_7
    named_s |= l.rfind("{ s |", 0) == 0;             // the let's value
    named_y |= l.rfind("{ x, y |", 0) == 0;  // the first call's parameter (the second's is y_k)
  }
  EXPECT_TRUE(named_s) << r.out;
  EXPECT_TRUE(named_y) << r.out;
}

// The operands of a non-commutative operator are marked: x / d has its numerator's edge
// labelled a and its denominator's b, and the operator's node reads "a / b"; those of * and +
// are not marked.
TEST(TracePicture, OperandOrderIsMarkedOnNonCommutativeOperators) {
  std::string f = write_temp("order.ad", "let d: real = x - y in x / d + y * d");
  ProcessResult r =
      adlang({"trace", f, "--env", "x=3", "--env", "y=1.25", "--format", "dot", "--wrt", "x"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto node_named = [&](const std::string& head) {
    std::size_t at = r.out.find("label=\"{ " + head + " |");
    if (at == std::string::npos) return std::string();
    std::size_t start = r.out.rfind("\n  ", at) + 3;
    return r.out.substr(start, r.out.find(' ', start) - start);
  };
  std::string x = node_named("x"), y = node_named("y"), d = node_named("d");
  ASSERT_FALSE(x.empty() || y.empty() || d.empty()) << r.out;
  std::size_t sub = r.out.find("label=\"a - b\""), div = r.out.find("label=\"a / b\"");
  ASSERT_NE(sub, std::string::npos) << r.out;
  ASSERT_NE(div, std::string::npos) << r.out;
  std::string sub_op = r.out.substr(r.out.rfind("\n  ", sub) + 3);
  sub_op = sub_op.substr(0, sub_op.find(' '));
  std::string div_op = r.out.substr(r.out.rfind("\n  ", div) + 3);
  div_op = div_op.substr(0, div_op.find(' '));
  EXPECT_NE(r.out.find(x + " -> " + sub_op + " [label=\"a\"]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(y + " -> " + sub_op + " [label=\"b\"]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(x + " -> " + div_op + " [label=\"a\"]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(d + " -> " + div_op + " [label=\"b\"]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("label=\"*\""), std::string::npos);
  EXPECT_EQ(r.out.find("label=\"a * b\""), std::string::npos);
}

// Every number on the picture has at most 4 significant digits.
TEST(TracePicture, ValuesAreRoundedTo4SignificantDigits) {
  std::string f = write_temp("digits.ad", "(exp(x) / 3, 1234567.891 * x)");
  ProcessResult r = adlang({"trace", f, "--env", "x=0.1", "--format", "dot"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("value (0.3684, 1.235e+05)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("value 1.105"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tooltip=\"value 1.1051709180756477\""), std::string::npos) << r.out;
}

struct Row {
  std::string x, f, rd, central;
};

std::vector<Row> table(const std::string& out) {
  std::vector<Row> rows;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("--", 0) == 0) continue;
    std::istringstream l(line);
    Row r;
    std::getline(l, r.x, '\t');
    std::getline(l, r.f, '\t');
    std::getline(l, r.rd, '\t');
    std::getline(l, r.central, '\t');
    rows.push_back(r);
  }
  return rows;
}

bool valid_xml(const std::string& path) {
  ProcessResult r = test::run_process(
      "/usr/bin/python3",
      {"-c", "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])", path});
  return r.exit_code == 0;
}

TEST(Plot, SvgIsValidAndItsSamplesMatchRun) {
  std::string svg = temp_path("abs.svg");
  ProcessResult r = adlang({"plot", "wrong_derivative.ad", "--wrt", "x", "--from", "-1", "--to",
                            "1", "--samples", "21", "-o", svg});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(valid_xml(svg));
  std::vector<Row> rows = table(r.out);
  ASSERT_EQ(rows.size(), 21u);
  for (std::size_t i : {0u, 3u, 10u, 17u, 20u}) {
    ProcessResult run = adlang({"run", "wrong_derivative.ad", "--env", "x=" + rows[i].x});
    if (rows[i].f == "undefined") {
      EXPECT_EQ(run.exit_code, 1) << rows[i].x;
    } else {
      EXPECT_EQ(run.out, rows[i].f + "\n") << rows[i].x;
    }
  }
  // Strict predicates: undefined at the tie x = 0, which the chart marks.
  EXPECT_EQ(rows[10].x, "0");
  EXPECT_EQ(rows[10].f, "undefined");
  EXPECT_NE(test::read_file(svg).find("undefined"), std::string::npos);
  EXPECT_NE(r.out.find("-- undefined: "), std::string::npos);
}

// The points of the longest line drawn in gnuplot's group `id` (the chart's series; the key's
// two-point sample line is another, in a path of its own or before the series' M in the same
// path), in order: an "x,y" after an M starts a line, one after an L continues it.
std::vector<std::pair<double, double>> svg_path_points(const std::string& svg,
                                                       const std::string& id) {
  std::vector<std::pair<double, double>> longest;
  std::size_t group = svg.find("<g id=\"" + id + "\"");
  if (group == std::string::npos) return longest;
  std::size_t group_end = svg.find("<g id=\"gnuplot_plot_", group + 1);
  for (std::size_t d = svg.find(" d='", group); d != std::string::npos && d < group_end;
       d = svg.find(" d='", d + 1)) {
    std::vector<std::pair<double, double>> points;
    std::size_t end = svg.find('\'', d + 4);
    std::istringstream in(svg.substr(d + 4, end - d - 4));
    char command = 0, comma = 0;
    double x = 0, y = 0;
    while (in >> command >> x >> comma >> y) {
      if ((command != 'M' && command != 'L') || comma != ',') break;
      if (command == 'M') {
        if (points.size() > longest.size()) longest = points;
        points.clear();
      }
      points.emplace_back(x, y);
    }
    if (points.size() > longest.size()) longest = points;
  }
  return longest;
}

// Each series of the chart is the affine image of its column of the printed table (the pixel
// position of a value is a * value + b on each axis, y growing downwards): the picture shows
// the values that match `adlang run`.
TEST(Plot, SvgDrawsTheSampledValues) {
  std::string svg = temp_path("chain.svg");
  ProcessResult r = adlang({"plot", "chain_rule.ad", "--wrt", "x", "--from", "-2", "--to", "2",
                            "--samples", "41", "-o", svg});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<Row> rows = table(r.out);
  ASSERT_EQ(rows.size(), 41u);
  std::string text = test::read_file(svg);
  for (const auto& [id, column] :
       {std::pair<std::string, std::string Row::*>{"gnuplot_plot_1", &Row::f},
        {"gnuplot_plot_2", &Row::rd},
        {"gnuplot_plot_3", &Row::central}}) {
    SCOPED_TRACE(id);
    std::vector<std::pair<double, double>> px = svg_path_points(text, id);
    ASSERT_EQ(px.size(), rows.size());
    std::vector<std::pair<double, double>> value;
    for (const Row& row : rows)
      value.emplace_back(std::stod(row.x), std::stod(row.*column));
    // The map from the extreme points, then every point against it (the SVG has 2 decimals).
    std::size_t lo = 0, hi = 0;
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (value[i].second < value[lo].second) lo = i;
      if (value[i].second > value[hi].second) hi = i;
    }
    ASSERT_GT(value[hi].second - value[lo].second, 0.5) << "the series is not flat";
    double ax = (px.back().first - px.front().first) / (value.back().first - value.front().first);
    double bx = px.front().first - ax * value.front().first;
    double ay = (px[hi].second - px[lo].second) / (value[hi].second - value[lo].second);
    double by = px[lo].second - ay * value[lo].second;
    EXPECT_GT(ax, 0);
    EXPECT_LT(ay, 0);
    for (std::size_t i = 0; i < value.size(); ++i) {
      EXPECT_NEAR(px[i].first, ax * value[i].first + bx, 0.02) << rows[i].x;
      EXPECT_NEAR(px[i].second, ay * value[i].second + by, 0.02) << rows[i].x;
    }
  }
}

// Without -o, the samples alone (the playground draws them itself): the same table, no file.
TEST(Plot, WithoutOutputPrintsTheSamplesOnly) {
  std::string svg = temp_path("same.svg");
  ProcessResult drawn = adlang({"plot", "wrong_derivative.ad", "--wrt", "x", "--from", "-1", "--to",
                                "1", "--samples", "21", "-o", svg});
  ProcessResult table_only = adlang({"plot", "wrong_derivative.ad", "--wrt", "x", "--from", "-1",
                                     "--to", "1", "--samples", "21"});
  ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
  EXPECT_EQ(table_only.exit_code, 0) << table_only.err;
  EXPECT_EQ(table_only.out, drawn.out);
  EXPECT_EQ(table_only.err, "");
  EXPECT_EQ(table(table_only.out).size(), 21u);
}

TEST(Plot, TotalPredicatesShowTheWrongDerivative) {
  std::string png = temp_path("total.png");
  ProcessResult r = adlang({"plot", "wrong_derivative.ad", "--wrt", "x", "--from", "-1", "--to",
                            "1", "--samples", "21", "--predicates", "total", "-o", png});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(png).substr(0, 4), "\x89PNG");
  std::vector<Row> rows = table(r.out);
  ASSERT_EQ(rows.size(), 21u);
  // The function is 0 everywhere, and so are its central differences; rd says 1 at 0.
  EXPECT_EQ(rows[10].f, "0");
  EXPECT_EQ(rows[10].rd, "1");
  EXPECT_EQ(rows[10].central, "0");
  EXPECT_EQ(rows[3].rd, "0");
}

// Central differences are drawn only where they estimate a derivative: not where the program
// is undefined (relu at 0 under strict predicates), nor across a jump (fact's steps, at 0.5,
// 1.5, ... where its central differences were spikes of -9e5), nor across a corner (relu at 0
// under total predicates, where they said 0.5).
TEST(Plot, NoCentralDifferenceAcrossAnUndefinedPointAJumpOrACorner) {
  // Under total predicates fact is defined at its steps 0.5, 1.5, ... (strict ones leave it
  // undefined there, at the ties of n < 0.5), and jumps there.
  std::string fact = test::source_dir() + "/examples/fact.ad";
  ProcessResult r = adlang({"plot", fact, "--wrt", "x", "--from", "0", "--to", "4", "--samples",
                            "41", "--predicates", "total"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<Row> rows = table(r.out);
  ASSERT_EQ(rows.size(), 41u);
  for (const Row& row : rows) {
    if (row.central == "undefined") continue;
    EXPECT_LT(std::fabs(std::stod(row.central)), 100) << row.x;  // no spike
  }
  for (std::size_t i : {5u, 15u, 25u, 35u}) {  // x = 0.5, 1.5, 2.5, 3.5: the jumps
    EXPECT_EQ(rows[i].central, "undefined") << rows[i].x;
    EXPECT_NE(rows[i].f, "undefined") << rows[i].x;
  }
  EXPECT_NE(rows[10].central, "undefined");  // x = 1, between two jumps
  std::string relu = write_temp("relu.ad", "if x < 0 then 0 else x");
  for (const std::string predicates : {"strict", "total"}) {
    ProcessResult p = adlang({"plot", relu, "--wrt", "x", "--from", "-1", "--to", "1", "--samples",
                              "21", "--predicates", predicates});
    ASSERT_EQ(p.exit_code, 0) << p.err;
    std::vector<Row> pr = table(p.out);
    ASSERT_EQ(pr.size(), 21u);
    EXPECT_EQ(pr[10].x, "0");
    EXPECT_EQ(pr[10].central, "undefined") << predicates;
    EXPECT_NEAR(std::stod(pr[9].central), 0, 1e-6) << predicates;
    EXPECT_NEAR(std::stod(pr[11].central), 1, 1e-6) << predicates;
  }
}

// The chart's y range comes from the program's values and its derivative's, with a margin;
// a central difference far outside it does not stretch it; the legend is below the chart.
TEST(Plot, YRangeFromTheProgramAndItsDerivativeAndTheLegendOutside) {
  FunctionPlot plot;
  plot.title = "t";
  plot.wrt = "x";
  for (int i = 0; i <= 10; ++i) {
    PlotSample s;
    s.x = i;
    s.f = i;  // from 0 to 10
    s.rd = 1;
    s.central = i == 5 ? -9e5 : 1;
    plot.samples.push_back(s);
  }
  std::string script = gnuplot_script(plot, PlotFormat::Svg, "out.svg");
  EXPECT_NE(script.find("set yrange [-0.80000000000000004:10.800000000000001]"), std::string::npos)
      << script;
  EXPECT_NE(script.find("set key outside below"), std::string::npos) << script;
}

TEST(Plot, ANonRealResultIsNamedWithItsType) {
  std::string f = write_temp("pair.ad", "(x, sin(x))");
  ProcessResult r = adlang({"plot", f, "--wrt", "x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "adlang: error: plot draws a real result, and the program's result has type "
            "real * real\n");
}

// adlang graph draws without inputs (the graph's shape does not depend on their values), with
// the parameters' names, and a legend of the node kinds; --stats runs it and needs them.
TEST(GraphPicture, NoInputsParameterNamesAndALegend) {
  std::string fib = test::source_dir() + "/examples/fib.ad";
  ProcessResult r = adlang({"graph", fib, "--format", "dot"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("label=\"Merge (n)\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(n)\", shape=box"), std::string::npos) << r.out;  // Call_i (n)
  EXPECT_EQ(r.out.find("(x0)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("subgraph cluster_legend"), std::string::npos);
  for (const char* kind : {"Switch", "Merge", "Call_i", "Return_i", "dashed"})
    EXPECT_NE(r.out.find(kind), std::string::npos) << kind;
  ProcessResult given = adlang({"graph", fib, "--format", "dot", "--env", "n=3"});
  EXPECT_EQ(given.out, r.out) << "the inputs do not change the picture";
  std::string svg = temp_path("fib.svg");
  ProcessResult drawn = adlang({"graph", fib, "--format", "svg", "-o", svg});
  ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
  EXPECT_TRUE(valid_xml(svg));
  ProcessResult stats = adlang({"graph", fib, "--format", "dot", "--stats"});
  EXPECT_EQ(stats.exit_code, 2);
  EXPECT_NE(stats.err.find("--env n=VALUE"), std::string::npos) << stats.err;
  // A pair parameter's components by fst and snd.
  std::string pair =
      write_temp("pair_param.ad", "def f(p: real * real): real = fst(p) * snd(p);\nf((x, x))");
  ProcessResult components = adlang({"graph", pair, "--format", "dot"});
  ASSERT_EQ(components.exit_code, 0) << components.err;
  EXPECT_NE(components.out.find("Merge (fst p)"), std::string::npos) << components.out;
  EXPECT_NE(components.out.find("Merge (snd p)"), std::string::npos) << components.out;
}

}  // namespace
}  // namespace adlang
