// adlang plot: the program as a function of one real input over [from, to], with its
// derivative 1.rd_a(x:real. M) (what the language computes, Fig. 2) and central differences,
// drawn by gnuplot (viz/function_plot.hpp) when -o names a chart. Points where the program is
// undefined (a strict comparison at a tie, an operator outside its domain) are marked; central
// differences are left out where the function jumps or bends (central_difference below).
// Computed in double.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "driver/command_runner.hpp"
#include "driver/commands.hpp"
#include "semantics/compiled_eval.hpp"
#include "support/exit_codes.hpp"
#include "viz/function_plot.hpp"

namespace adlang {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// (f(x + h) - f(x - h)) / 2h, where it estimates a derivative: f defined at x - h, x and
// x + h, and its two one-sided differences agreeing. Where they disagree the function jumps or
// bends between x - h and x + h (fact's steps, relu's corner under total predicates), and the
// central difference there is no derivative of anything: none is drawn, rather than a spike
// or relu's 0.5 at 0.
std::optional<double> central_difference(double f, std::optional<double> down,
                                         std::optional<double> up, double h) {
  if (!down || !up) return std::nullopt;
  const double left = (f - *down) / h, right = (*up - f) / h;
  // A smooth f's one-sided differences differ by about |f''| h, which this allows up to
  // 1000 max(1, |f'|) at h = 1e-6, beyond the rounding of f's values (amplified by 1 / h).
  const double noise = 64 * std::numeric_limits<double>::epsilon() *
                       std::max({std::fabs(f), std::fabs(*down), std::fabs(*up)}) / h;
  const double scale = std::max({1.0, std::fabs(left), std::fabs(right)});
  if (!(std::fabs(left - right) <= 1e-3 * scale + noise)) return std::nullopt;
  return (*up - *down) / (2 * h);
}

std::string text(const std::optional<double>& v) {
  return v ? print_value<double>(Type::real(), Value<double>{*v}) : "undefined";
}

}  // namespace

int plot_command(const PlotOptions& opts_in, std::ostream& out, std::ostream& err,
                 CommandResult* result) {
  std::shared_ptr<SourceFile> file;
  return run_guarded(
      false, out, err, file,
      [&] {
        PlotFormat format = PlotFormat::Svg;
        if (ends_with(opts_in.output, ".png")) {
          format = PlotFormat::Png;
        } else if (!opts_in.output.empty() && !ends_with(opts_in.output, ".svg")) {
          throw CommandFailure(kExitUsage, "adlang: error: -o must name a .svg or .png file\n");
        }
        if (!(opts_in.from < opts_in.to) || opts_in.samples < 2 || opts_in.samples > 100000) {
          throw CommandFailure(kExitUsage,
                               "adlang: error: plot needs --from < --to and 2 to 100000 samples\n");
        }
        // The plotted input gets its values here, not from --env.
        PlotOptions opts = opts_in;
        for (const std::string& e : opts.env) {
          if (e.rfind(opts.wrt + "=", 0) == 0) {
            throw CommandFailure(kExitUsage,
                                 "adlang: error: --env " + opts.wrt +
                                     ": plot gives the input on the x axis its values\n");
          }
        }
        opts.env.push_back(opts.wrt + "=0");
        auto p = load_program<double>(opts, file);
        const ProgramInput<double>* wrt = &input_named(*p, opts.wrt);
        if (!p->term.type().is_real()) {
          throw CommandFailure(kExitUsage,
                               "adlang: error: plot draws a real result, and the program's result "
                               "has type " +
                                   to_string(p->term.type()) + "\n");
        }
        // 1.rd_a(x:real. M), a a fresh input bound to each sample point.
        Name point = p->names.fresh("a");
        Term derivative = mk::rd(mk::literal("1"), mk::var(point, Type::real()), wrt->name,
                                 Type::real(), p->term, p->term.loc());

        auto run = [&](const Term& t, double x, std::string* why) -> std::optional<double> {
          ValueEnv<double> rho;
          for (const ProgramInput<double>& in : p->inputs)
            rho.push(in.name, in.name == wrt->name ? Value<double>{x} : in.value);
          rho.push(point, Value<double>{x});
          EvalContext cx(eval_options(opts), p->names);
          try {
            return evaluate(t, rho, cx)[0];
          } catch (const Undefined& e) {
            if (why) *why = e.what();
            return std::nullopt;
          }
        };

        FunctionPlot plot;
        plot.title = opts.file + " as a function of " + opts.wrt +
                     (opts.predicates == PredicateMode::Total ? " (total predicates)" : "");
        plot.wrt = opts.wrt;
        std::set<std::string> reasons;
        if (opts.print_samples) out << "-- " << opts.wrt << "\tprogram\trd\tcentral differences\n";
        const double n = static_cast<double>(opts.samples - 1);
        for (std::size_t i = 0; i < opts.samples; ++i) {
          PlotSample s;
          // Exact at both ends and at 0 for a symmetric interval.
          s.x = (opts.from * (n - static_cast<double>(i)) + opts.to * static_cast<double>(i)) / n;
          s.f = run(p->term, s.x, &s.undefined);
          s.rd = run(derivative, s.x, nullptr);
          double h = 1e-6 * std::max(1.0, std::fabs(s.x));
          if (s.f)
            s.central = central_difference(*s.f, run(p->term, s.x - h, nullptr),
                                           run(p->term, s.x + h, nullptr), h);
          if (!s.f) reasons.insert(s.undefined);
          if (opts.print_samples) {
            out << text(s.x) << "\t" << text(s.f) << "\t" << text(s.rd) << "\t" << text(s.central)
                << "\n";
          }
          plot.samples.push_back(std::move(s));
        }
        for (const std::string& r : reasons)
          out << "-- undefined: " << r << "\n";
        // Without -o, the samples alone (the playground draws them itself, docs/playground.md).
        if (opts.picture_in_result && result) {
          result->pictures.push_back(
              Picture{"svg",
                      draw_into_memory({"gnuplot"}, gnuplot_script(plot, PlotFormat::Svg, ""),
                                       "gnuplot-nox"),
                      "the plot of the term, its derivative by rd and central differences, as "
                      "functions of " +
                          opts.wrt});
        } else if (!opts.output.empty()) {
          draw_with({"gnuplot"}, gnuplot_script(plot, format, opts.output), "gnuplot-nox");
        }
        return int(kExitOk);
      },
      result);
}

}  // namespace adlang
