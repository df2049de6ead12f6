#include "viz/function_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <utility>

namespace adlang {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A gnuplot string in single quotes ('' is a quote inside).
std::string gp_string(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

// A data block of (x, y) rows; a blank line where y is missing, so that lines break there.
std::string block(const char* name, const std::vector<PlotSample>& samples,
                  std::optional<double> PlotSample::*field) {
  std::string out = std::string("$") + name + " << EOD\n";
  bool gap = false;
  for (const PlotSample& s : samples) {
    if (!(s.*field)) {
      if (!gap) out += "\n";
      gap = true;
      continue;
    }
    out += number(s.x) + " " + number(*(s.*field)) + "\n";
    gap = false;
  }
  return out + "EOD\n";
}

// The y range: the program's values and its derivative's, with a margin (8% of the range on
// each side) so that lines on its edge stay visible. Central differences do not widen it: next
// to a jump they can be huge, and would flatten the chart. None when nothing is defined.
std::optional<std::pair<double, double>> y_range(const std::vector<PlotSample>& samples) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const PlotSample& s : samples) {
    for (const std::optional<double>& v : {s.f, s.rd}) {
      if (!v || !std::isfinite(*v)) continue;
      lo = std::min(lo, *v);
      hi = std::max(hi, *v);
    }
  }
  if (lo > hi) return std::nullopt;
  double margin = 0.08 * (hi - lo);
  if (!(margin > 1e-12 * std::max(std::fabs(lo), std::fabs(hi)))) {
    margin = std::max(1.0, 0.1 * std::fabs(hi));  // a constant function: a band around it
  }
  return std::pair<double, double>{lo - margin, hi + margin};
}

}  // namespace

std::string gnuplot_script(const FunctionPlot& plot, PlotFormat format, const std::string& output) {
  std::ostringstream g;
  // 800 pixels wide: a notebook cell's width, so the text keeps its size there.
  if (format == PlotFormat::Svg) {
    g << "set terminal svg size 800,520 dynamic enhanced font 'Helvetica,12' background "
         "rgb 'white'\n";
  } else {
    g << "set terminal pngcairo size 800,520 enhanced font 'Helvetica,11'\n";
  }
  // The legend below the chart, outside the data (it hid an undefined point's marker).
  if (!output.empty()) g << "set output " << gp_string(output) << "\n";
  g << "set title " << gp_string(plot.title) << " noenhanced\n"
    << "set xlabel " << gp_string(plot.wrt) << " noenhanced\n"
    << "set grid\nset key outside below center horizontal box\nset zeroaxis\n";
  if (std::optional<std::pair<double, double>> y = y_range(plot.samples)) {
    g << "set yrange [" << number(y->first) << ":" << number(y->second) << "]\n";
  }
  g << block("f", plot.samples, &PlotSample::f) << block("rd", plot.samples, &PlotSample::rd)
    << block("cd", plot.samples, &PlotSample::central);
  std::string undefined = "$undef << EOD\n";
  bool any_undefined = false;
  for (const PlotSample& s : plot.samples) {
    if (s.f) continue;
    undefined += number(s.x) + " 0\n";
    any_undefined = true;
  }
  g << undefined << "EOD\n";
  bool any_f = false, any_rd = false, any_cd = false;
  for (const PlotSample& s : plot.samples) {
    any_f |= s.f.has_value();
    any_rd |= s.rd.has_value();
    any_cd |= s.central.has_value();
  }
  std::vector<std::string> series;
  if (any_f) series.push_back("$f using 1:2 with lines lw 2 lc rgb '#1f77b4' title 'program'");
  if (any_rd) {
    series.push_back(
        "$rd using 1:2 with linespoints lw 1.5 pt 7 ps 0.35 lc rgb '#d62728' title "
        "'derivative by rd'");
  }
  if (any_cd) {
    series.push_back(
        "$cd using 1:2 with lines lw 1.5 dt 2 lc rgb '#2ca02c' title 'central differences'");
  }
  if (any_undefined) {
    series.push_back(
        "$undef using 1:2 with points pt 2 ps 1.6 lw 2 lc rgb 'black' title 'undefined'");
  }
  g << "plot ";
  for (std::size_t i = 0; i < series.size(); ++i)
    g << (i ? ", \\\n     " : "") << series[i];
  g << "\n";
  return g.str();
}

}  // namespace adlang
