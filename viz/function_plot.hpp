// A program as a function of one real input, on one chart with its derivative by `rd` and
// central differences, and the points where it is undefined marked. The chart is drawn by
// gnuplot (Debian: gnuplot-nox) from the script written here: gnuplot is a mature plotting
// program whose SVG and PNG (cairo) output needs no drawing code of ours, and running it as a
// process keeps it out of adlang's link line.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace adlang {

struct PlotSample {
  double x = 0;
  std::optional<double> f;        // the program's value; none where it is undefined
  std::optional<double> rd;       // 1.rd_x(x. M): the derivative the language computes
  std::optional<double> central;  // (f(x + h) - f(x - h)) / 2h
  std::string undefined;          // why f is undefined, if it is
};

struct FunctionPlot {
  std::string title;
  std::string wrt;  // the input on the x axis
  std::vector<PlotSample> samples;
};

enum class PlotFormat { Svg, Png };

// The gnuplot script that draws `plot` into `output` (empty: onto gnuplot's standard output).
std::string gnuplot_script(const FunctionPlot& plot, PlotFormat format, const std::string& output);

}  // namespace adlang
