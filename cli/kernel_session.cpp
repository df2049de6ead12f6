#include "cli/kernel_session.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "cli/temporary_directory.hpp"
#include "driver/commands.hpp"
#include "driver/picture_pages.hpp"
#include "support/exit_codes.hpp"

namespace adlang {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

std::string take(std::ostringstream& s) {
  std::string text = s.str();
  s.str("");
  s.clear();
  return text;
}

// A directory of its own under $TMPDIR for a picture's file; removed with the file.
class PictureFile {
 public:
  explicit PictureFile(const std::string& name) : dir_(make_temporary_directory("adlang-kernel")) {
    if (!dir_.empty()) path_ = dir_ + "/" + name;
  }
  ~PictureFile() {
    if (dir_.empty()) return;
    unlink(path_.c_str());
    rmdir(dir_.c_str());
  }
  PictureFile(const PictureFile&) = delete;
  PictureFile& operator=(const PictureFile&) = delete;

  bool ok() const { return !dir_.empty(); }
  const std::string& path() const { return path_; }
  std::string contents() const {
    std::ifstream f(path_, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }

 private:
  std::string dir_, path_;
};

}  // namespace

const char* error_name(int exit_code) {
  switch (exit_code) {
    case kExitUndefined:
      return "Undefined";
    case kExitUsage:
      return "UsageError";
    case kExitCompileError:
      return "CompileError";
    case kExitCheckFailed:
      return "CheckFailed";
    default:
      return "InternalError";
  }
}

const char* KernelSession::help_text() {
  return "A cell holds definitions (kept for later cells), terms (their values are printed),\n"
         "the REPL's :commands (below), and magics, each on a line of its own:\n"
         "  %trace [E]                      the trace term of E and its picture\n"
         "  %diff x                         the derivative of the next term in the input x,\n"
         "                                  and the picture with each node's adjoint\n"
         "  %den [E]                        the denotation of E (Fig. 7)\n"
         "  %check [E]                      the paper's theorems on the program E\n"
         "  %check N                        the theorems on N random programs (adlang check)\n"
         "  %plot x A B [table]             the next term as a function of x on [A, B], its\n"
         "                                  derivative by rd and central differences; with\n"
         "                                  `table`, the sampled values too\n"
         "  %type [E], %derivation [E]      E's type; the derivation of its evaluation\n"
         "  %env x=0.5, %set KEY VALUE, %load FILE, %defs: as :env, :set, :load, :defs\n"
         "A magic without E on its line takes the cell's next term.\n\n"
         "The REPL's commands:\n";
}

int KernelSession::run_cell(const std::string& cell, int execution_count, CellOutputs& outputs) {
  source_name_ = "In[" + std::to_string(execution_count) + "]";
  repl_.set_source_name(source_name_);
  for (const CellInput& in : split_cell(cell)) {
    int code = in.magic.empty() ? report(repl_.handle(in.text, in.text_line), outputs)
                                : run_magic(in, outputs);
    if (code != kExitOk) return code;
  }
  return kExitOk;
}

int KernelSession::report(int code, CellOutputs& outputs) {
  std::string out = take(out_), err = take(err_);
  if (!out.empty()) outputs.stream("stdout", out);
  if (code == kExitOk) {
    if (!err.empty()) outputs.stream("stderr", err);
    return code;
  }
  std::vector<std::string> traceback = lines_of(err);
  std::string evalue =
      traceback.empty() ? std::string("exit code ") + std::to_string(code) : traceback.front();
  outputs.error(error_name(code), evalue, traceback);
  return code;
}

int KernelSession::run_magic(const CellInput& in, CellOutputs& outputs) {
  const std::string& m = in.magic;
  auto usage = [&](const std::string& message) {
    err_ << source_name_ << ": error: " << message << "\n";
    return report(kExitUsage, outputs);
  };
  if (m == "help") {
    out_ << help_text() << ReplSession::help_text();
    return report(kExitOk, outputs);
  }
  if (m == "check" && in.text.empty() && !in.args.empty()) return check_random(in.args, outputs);
  bool known = m == "trace" || m == "diff" || m == "den" || m == "check" || m == "plot" ||
               m == "type" || m == "derivation";
  if (!known) {
    return usage("%" + m +
                 ": unknown magic (magics: %trace, %diff NAME, %den, %check [N], %plot NAME "
                 "FROM TO [table], %type, %derivation, %set, %env, %load, %defs, %help)");
  }
  if (in.text.empty()) {
    return usage("%" + m + " needs a term: write it on the lines after the magic" +
                 (m == "trace" || m == "den" || m == "type" || m == "derivation" || m == "check"
                      ? " or after the magic on its line"
                      : ""));
  }
  if (m == "plot") return plot(in, outputs);
  if (m == "diff") {
    std::istringstream words(in.args);
    std::string wrt, extra;
    words >> wrt >> extra;
    if (wrt.empty() || !extra.empty()) return usage("%diff takes one input's name: %diff x");
    int code = report(repl_.handle(":diff " + in.text + " wrt " + wrt, in.text_line), outputs);
    return code == kExitOk ? trace_picture(in, wrt, outputs) : code;
  }
  int code = report(repl_.handle(":" + m + " " + in.text, in.text_line), outputs);
  if (code != kExitOk || m != "trace") return code;
  return trace_picture(in, "", outputs);
}

int KernelSession::trace_picture(const CellInput& in, const std::string& wrt,
                                 CellOutputs& outputs) {
  TraceOptions opts;
  if (int code = repl_.program_options(in.text, opts)) return report(code, outputs);
  PictureFile svg("trace.svg");
  if (!svg.ok()) {
    err_ << "adlang kernel: error: cannot create a temporary directory for the picture\n";
    return report(kExitUsage, outputs);
  }
  opts.format = "svg";
  opts.output = svg.path();
  if (!wrt.empty()) opts.wrt = wrt;
  int code = trace_picture_command(opts, out_, err_);
  if (code != kExitOk) return report(code, outputs);
  take(out_);
  take(err_);  // the list of the pages' files
  // A long trace is drawn on pages (trace.svg, trace-2.svg, ...): each is displayed, one after
  // the other, each fitting the cell.
  const std::string what = wrt.empty() ? "<the trace as a graph, with each node's value"
                                       : "<the trace as a graph, with each node's value and "
                                         "its adjoint for " +
                                             wrt;
  outputs.display({{"image/svg+xml", svg.contents()}, {"text/plain", what + ">"}});
  for (std::size_t k = 2;; ++k) {
    std::string page = page_file(svg.path(), k);
    std::ifstream f(page, std::ios::binary);
    if (!f) break;
    std::string contents((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    unlink(page.c_str());
    outputs.display(
        {{"image/svg+xml", contents}, {"text/plain", what + ", page " + std::to_string(k) + ">"}});
  }
  return kExitOk;
}

int KernelSession::plot(const CellInput& in, CellOutputs& outputs) {
  std::istringstream words(in.args);
  PlotOptions opts;
  std::string option, extra;
  if (!(words >> opts.wrt >> opts.from >> opts.to) || ((words >> option) && option != "table") ||
      (words >> extra)) {
    err_ << source_name_
         << ": error: %plot takes an input and an interval, and `table` to print the samples: "
            "%plot x -2 2, %plot x -2 2 table\n";
    return report(kExitUsage, outputs);
  }
  const bool table = option == "table";
  std::string wrt = opts.wrt;
  double from = opts.from, to = opts.to;
  if (int code = repl_.program_options(in.text, opts, wrt)) return report(code, outputs);
  opts.wrt = wrt;
  opts.from = from;
  opts.to = to;
  PictureFile svg("plot.svg");
  if (!svg.ok()) {
    err_ << "adlang kernel: error: cannot create a temporary directory for the plot\n";
    return report(kExitUsage, outputs);
  }
  opts.output = svg.path();
  int code = plot_command(opts, out_, err_);
  if (!table) {
    std::string samples = take(out_), reasons;
    for (const std::string& line : lines_of(samples))
      if (line.rfind("-- undefined: ", 0) == 0) reasons += line + "\n";
    out_ << reasons;
  }
  if (code != kExitOk) return report(code, outputs);
  report(code, outputs);
  outputs.display({{"image/svg+xml", svg.contents()},
                   {"text/plain",
                    "<the plot of the term, its derivative by rd and central "
                    "differences, as functions of " +
                        wrt + ">"}});
  return kExitOk;
}

// `adlang check --count N`: the paper's theorems on N random programs, under the session's
// settings.
int KernelSession::check_random(const std::string& count, CellOutputs& outputs) {
  CommonOptions settings;
  repl_.program_options("()", settings);
  CheckOptions opts;
  if (count.size() > 9 || std::stoull(count) == 0) {
    err_ << source_name_
         << ": error: %check N: N is the number of random programs, from 1 to 999999999\n";
    return report(kExitUsage, outputs);
  }
  opts.count = std::stoull(count);
  opts.precision = settings.precision;
  opts.predicates = settings.predicates;
  opts.linear_r = settings.ad == AdMode::Linear;
  opts.progress = false;
  return report(check_command(opts, out_, err_), outputs);
}

}  // namespace adlang
