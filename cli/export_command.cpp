// adlang export: the program as a self-contained Python program with the same meaning
// (conform/python_export.hpp). Its inputs are the parameters of `main`; their types come from
// --env values (an input without one is a real). --wrt NAME adds `gradient(w, inputs...)`, the
// gradient of the program with respect to that input along the cotangent w.
#include <CLI/CLI.hpp>
#include <iostream>
#include <unordered_set>

#include "cli/conform_commands.hpp"
#include "conform/python_export.hpp"
#include "driver/command_runner.hpp"
#include "driver/program_loader.hpp"
#include "lang/free_vars.hpp"
#include "lang/type_checker.hpp"
#include "support/exit_codes.hpp"

namespace adlang {

namespace {

struct ExportCommandOptions {
  std::string file;
  std::string to = "torch";
  std::string predicates;
  std::vector<std::string> env;
  std::string wrt;
};

int export_command(const ExportCommandOptions& opts, std::ostream& out, std::ostream& err) {
  std::shared_ptr<SourceFile> file;
  return run_guarded(false, out, err, file, [&] {
    file = read_source(opts.file);
    ParsedFile parsed = parse_file(*file);
    CommonOptions common;
    common.file = opts.file;
    common.env = opts.env;
    std::unordered_set<std::string> given;
    for (const std::string& binding : opts.env)
      given.insert(binding.substr(0, binding.find('=')));
    for (const Name& x : program_inputs(parsed.syntax))
      if (!given.count(x.str())) common.env.push_back(x.str() + "=0");
    std::unique_ptr<LoadedProgram<double>> p = load_program<double>(common, file);
    std::vector<TypedName> inputs;
    for (const ProgramInput<double>& in : p->inputs)
      inputs.push_back(TypedName{in.name, in.type});
    conform::ExportOptions options;
    options.target =
        opts.to == "python" ? conform::ExportTarget::Python : conform::ExportTarget::Torch;
    options.predicates = predicate_mode(opts.predicates, opts.file);
    options.origin = opts.file;
    std::vector<conform::ExportEntry> entries{conform::ExportEntry{"main", inputs, p->term}};
    if (!opts.wrt.empty()) {
      std::size_t k = 0;
      while (k < inputs.size() && inputs[k].name.str() != opts.wrt)
        ++k;
      if (k == inputs.size()) {
        throw CommandFailure(
            kExitUsage, "adlang: error: --wrt " + opts.wrt + ": not an input of the program\n");
      }
      reserve_names(p->term, p->names);
      entries.push_back(conform::gradient_entry(p->term, inputs, k, p->names));
    }
    try {
      out << conform::export_python(entries, options, p->names);
    } catch (const conform::ExportTooLarge& e) {
      throw CommandFailure(kExitUndefined,
                           std::string("adlang: error: cannot export: ") + e.what() + "\n");
    }
    return int(kExitOk);
  });
}

}  // namespace

void register_export_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ExportCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "export", "print the program as a self-contained Python program (plain or PyTorch)");
  cmd->add_option("FILE", opts->file, "the .ad program")->required();
  cmd->add_option("--to", opts->to,
                  "torch: float64 tensors, rd by torch.autograd.grad; python: floats and math, "
                  "rd as the program's own derivative (no AD library)")
      ->check(CLI::IsMember({"python", "torch"}))
      ->default_str("torch");
  cmd->add_option("--predicates", opts->predicates,
                  "strict: a comparison of equal values raises Undefined (the paper's); total: "
                  "the conventional comparisons (default: strict)")
      ->check(CLI::IsMember({"strict", "total"}));
  cmd->add_option("--env", opts->env, "an input's type, by a value of it (default: real)")
      ->type_name("NAME=VALUE");
  cmd->add_option("--wrt", opts->wrt,
                  "also export gradient(w, inputs...): the gradient with respect to this input");
  cmd->callback([opts, &exit_code] { exit_code = export_command(*opts, std::cout, std::cerr); });
}

}  // namespace adlang
