// The `adlang export` and `adlang conform` subcommands (docs/conform.md): a program as Python
// (plain or PyTorch), and the semantics as the oracle of a real AD system through an adapter.
//
// cli/subcommands.cpp lists each; when one runs (during app.parse()) it stores its exit code in
// `exit_code`, which otherwise stays negative.
#pragma once

#include <ostream>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace adlang {

// adlang export --to python|torch FILE.ad [--env NAME=VALUE] [--wrt NAME] [--predicates ...].
void register_export_command(CLI::App& app, int& exit_code);

// adlang conform --system torch|python|CMD [--count N] [--seed S] [--suite DIR] [--json] ...
void register_conform_command(CLI::App& app, int& exit_code);

struct CheckOptions;
// adlang check --emit-suite DIR: writes a conformance suite (conform/suite.hpp): `opts.count`
// random programs of `opts.seed`, or the one program `opts.file` at its --env inputs.
int emit_suite_command(const CheckOptions& opts, const std::string& dir, std::ostream& out,
                       std::ostream& err);

}  // namespace adlang
