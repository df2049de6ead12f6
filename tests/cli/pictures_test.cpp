// Pictures: adlang trace --format dot|svg|png (golden DOT with values and adjoints) and
// adlang plot (a valid SVG whose sampled values match adlang run at the same points).
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

// The "adjoint ..." of the record whose first field is `name`.
std::string adjoint_in_dot(const std::string& dot, const std::string& name) {
  // The record reads "{ NAME | value V | adjoint A }".
  const std::string head = "{ " + name + " | value ";
  for (std::size_t at = dot.find(head); at != std::string::npos; at = dot.find(head, at + 1)) {
    std::size_t bar = dot.find_first_of("|}", at + head.size());
    if (bar == std::string::npos || dot[bar] != '|') continue;
    const std::string adjoint = "| adjoint ";
    if (dot.compare(bar, adjoint.size(), adjoint) != 0) continue;
    std::size_t start = bar + adjoint.size(), end = dot.find(' ', start);
    if (end == std::string::npos || end == start || dot.compare(end, 2, " }") != 0) continue;
    return dot.substr(start, end - start);
  }
  return "";
}

TEST(TracePicture, GoldenDotWithValuesAndAdjoints) {
  ProcessResult r =
      adlang({"trace", "chain_rule.ad", "--env", "x=0.5", "--format", "dot", "--wrt", "x"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  test::expect_golden("pictures/chain_rule.dot", r.out);
  // The input's adjoint is the derivative adlang diff computes.
  ProcessResult d = adlang({"diff", "chain_rule.ad", "--env", "x=0.5", "--wrt", "x"});
  std::string value = d.out.substr(d.out.rfind("-- value:\n") + 10);
  EXPECT_EQ(adjoint_in_dot(r.out, "x") + "\n", value);
  // The result's adjoint is the cotangent.
  std::size_t result = r.out.find("penwidth=2");
  ASSERT_NE(result, std::string::npos);
  std::string line = r.out.substr(result, r.out.find('\n', result) - result);
  EXPECT_NE(line.find("| adjoint 1 }\""), std::string::npos) << line;
}

TEST(TracePicture, SharedSubtermsAreDrawnOnce) {
  std::string f = write_temp("shared.ad", "let y: real = x * x in sin(y) + y");
  ProcessResult r = adlang({"trace", f, "--env", "x=3", "--format", "dot", "--wrt", "x"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  test::expect_golden("pictures/shared.dot", r.out);
  // y = x * x is one node (one "*" operation, named by the trace's x_1 and the program's y)
  // with two consumers; its adjoint is d(sin y + y)/dy = cos 9 + 1.
  std::size_t muls = 0;
  for (std::size_t at = r.out.find("label=\"*\""); at != std::string::npos;
       at = r.out.find("label=\"*\"", at + 1))
    ++muls;
  EXPECT_EQ(muls, 1u);
  EXPECT_EQ(adjoint_in_dot(r.out, "x_1, y"), "0.08886973811532306");
}

TEST(TracePicture, SvgAndPngAreDrawnByGraphviz) {
  std::string svg = temp_path("t.svg"), png = temp_path("t.png");
  ProcessResult a = adlang(
      {"trace", "chain_rule.ad", "--env", "x=0.5", "--format", "svg", "--wrt", "x", "-o", svg});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  std::string text = test::read_file(svg);
  EXPECT_NE(text.find("<svg"), std::string::npos);
  EXPECT_NE(text.find("adjoint"), std::string::npos);
  ProcessResult b =
      adlang({"trace", "chain_rule.ad", "--env", "x=0.5", "--format", "png", "-o", png});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(test::read_file(png).substr(0, 4), "\x89PNG");
  ProcessResult c = adlang({"trace", "chain_rule.ad", "--env", "x=0.5", "--format", "svg"});
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find("-o FILE"), std::string::npos);
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

// The points of the first path drawn in gnuplot's group `id` (the chart's series; the key's
// sample line comes later), in order: every "x,y" after an M or an L.
std::vector<std::pair<double, double>> svg_path_points(const std::string& svg,
                                                       const std::string& id) {
  std::vector<std::pair<double, double>> points;
  std::size_t group = svg.find("<g id=\"" + id + "\"");
  if (group == std::string::npos) return points;
  std::size_t d = svg.find(" d='", group);
  if (d == std::string::npos) return points;
  std::size_t end = svg.find('\'', d + 4);
  std::istringstream in(svg.substr(d + 4, end - d - 4));
  char command = 0, comma = 0;
  double x = 0, y = 0;
  while (in >> command >> x >> comma >> y) {
    if ((command != 'M' && command != 'L') || comma != ',') return {};
    points.emplace_back(x, y);
  }
  return points;
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

}  // namespace
}  // namespace adlang
