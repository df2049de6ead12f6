#include "cli/kernel_session.hpp"

#include <sstream>

#include "lang/diagnostics.hpp"
#include "support/exit_codes.hpp"

namespace adlang {

namespace {

std::vector<std::string> cell_lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

}  // namespace

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
  session_.set_source_name(source_name_);
  for (const CellInput& in : split_cell(cell)) {
    int code = in.magic.empty() ? report(session_.handle(in.text, in.text_line), outputs)
                                : run_magic(in, outputs);
    if (code != kExitOk) return code;
  }
  return kExitOk;
}

int KernelSession::report(const CommandResult& r, CellOutputs& outputs) {
  if (!r.out.empty()) outputs.stream("stdout", r.out);
  if (r.ok()) {
    if (!r.err.empty()) outputs.stream("stderr", r.err);
    // The session draws the kernel's pictures as SVG (Session::trace_picture, Session::plot).
    for (const Picture& p : r.pictures) {
      internal_check(p.format == "svg", "the kernel's pictures are SVG");
      outputs.display({{"image/svg+xml", p.bytes}, {"text/plain", "<" + p.description + ">"}});
    }
    return r.exit_code;
  }
  // The error's name and message are the result's; the traceback is what the CLI prints.
  std::vector<std::string> traceback = cell_lines_of(r.err);
  std::string evalue = "exit code " + std::to_string(r.exit_code);
  if (r.diagnostic) {
    std::vector<std::string> rendered = cell_lines_of(r.diagnostic->rendered);
    evalue = rendered.empty() ? r.diagnostic->message : rendered.front();
  }
  outputs.error(error_name(r.error), evalue, traceback);
  return r.exit_code;
}

int KernelSession::run_magic(const CellInput& in, CellOutputs& outputs) {
  const std::string& m = in.magic;
  auto usage = [&](const std::string& message) {
    return report(session_.usage_error(message), outputs);
  };
  if (m == "help") {
    CommandResult help;
    help.out = std::string(help_text()) + Session::help_text();
    return report(help, outputs);
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
    int code = report(session_.handle(":diff " + in.text + " wrt " + wrt, in.text_line), outputs);
    if (code != kExitOk) return code;
    // The picture with each node's adjoint (a long trace on pages, each displayed).
    return report(session_.trace_picture(in.text, in.text_line, wrt), outputs);
  }
  int code = report(session_.handle(":" + m + " " + in.text, in.text_line), outputs);
  if (code != kExitOk || m != "trace") return code;
  return report(session_.trace_picture(in.text, in.text_line, ""), outputs);
}

int KernelSession::plot(const CellInput& in, CellOutputs& outputs) {
  std::istringstream words(in.args);
  std::string wrt, option, extra;
  double from = 0, to = 0;
  if (!(words >> wrt >> from >> to) || ((words >> option) && option != "table") ||
      (words >> extra)) {
    return report(session_.usage_error("%plot takes an input and an interval, and `table` to "
                                       "print the samples: %plot x -2 2, %plot x -2 2 table"),
                  outputs);
  }
  return report(session_.plot(in.text, in.text_line, wrt, from, to, option == "table"), outputs);
}

// `adlang check --count N`: the paper's theorems on N random programs, under the session's
// settings.
int KernelSession::check_random(const std::string& count, CellOutputs& outputs) {
  if (count.size() > 9 || std::stoull(count) == 0) {
    return report(
        session_.usage_error("%check N: N is the number of random programs, from 1 to 999999999"),
        outputs);
  }
  return report(session_.check_random(std::stoull(count)), outputs);
}

}  // namespace adlang
