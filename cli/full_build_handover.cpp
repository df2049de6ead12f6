// The lean adlang's side of cli/full_build.hpp: the check of the arguments, the exec, and the
// functions that, in adlang-full, call the libraries the lean adlang does not link. Here each
// hands the command over instead; none is reached before the command has read its input or
// written its output (the Python parser parses the program first; MPI starts before anything
// else; Graphviz renders before anything is written; the REPL hands over before reading).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

#include "cli/full_build.hpp"
#include "cli/repl_command.hpp"
#include "cli/subcommands.hpp"
#include "driver/graphviz_render.hpp"
#include "lang/python/ast/py_parse.hpp"
#include "semantics/graph/partition_on_rank.hpp"
#include "support/exit_codes.hpp"

namespace adlang::cli {
namespace {

char** remembered_argv = nullptr;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// What adlang-full must run, from the arguments alone; nullptr when the lean adlang can.
const char* needed_library(int argc, char** argv) {
  // OpenMPI's launcher sets OMPI_COMM_WORLD_SIZE (checker/check_ranks.cpp starts MPI on it).
  if (std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr) return "MPI (mpirun)";
  if (argc < 2) return "the list of subcommands";
  const std::string_view command = argv[1];
  // The lean adlang's subcommands (the table's `lean` column); anything else (repl, pyrewrite,
  // kernel, serve, --help, --version, a mistake) is adlang-full's, whose help and messages list
  // every subcommand.
  bool lean = false;
  for (const Subcommand& c : subcommands())
    lean = lean || (c.lean && command == c.name);
  if (!lean) return "the full set of subcommands";
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "kernel") return "xeus (adlang kernel)";
    if (ends_with(arg, ".py")) return "Python (the .py front end)";
    if (command == "graph" && (arg.find("svg") != arg.npos || arg.find("png") != arg.npos))
      return "Graphviz (graph pictures)";
  }
  return nullptr;
}

}  // namespace

void hand_over_if_needed(int argc, char** argv) {
  remembered_argv = argv;
  if (const char* needs = needed_library(argc, argv)) hand_over_to_full_build(needs);
}

void hand_over_to_full_build(const char* needs) {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::filesystem::path full = self.parent_path() / kFullBuildName;
  if (!ec && remembered_argv != nullptr) execv(full.c_str(), remembered_argv);
  std::fprintf(stderr, "adlang: internal error: %s needs %s, which could not be started: %s\n",
               needs, full.c_str(), std::strerror(ec ? ec.value() : errno));
  std::_Exit(kExitInternalError);
}

}  // namespace adlang::cli

namespace adlang::py {

NodePtr parse_module(const std::string&, const std::string&) {
  cli::hand_over_to_full_build("Python (the .py front end)");
}

void check_syntax(const std::string&, const std::string&) {
  cli::hand_over_to_full_build("Python (the .py front end)");
}

}  // namespace adlang::py

namespace adlang {

void render_graphviz(const std::string&, const std::string&, const std::string&, std::ostream&) {
  cli::hand_over_to_full_build("Graphviz (graph pictures)");
}

int repl_command(std::istream&, std::ostream&, std::ostream&) {
  cli::hand_over_to_full_build("libedit (adlang repl)");
}

std::vector<std::pair<std::uint32_t, graph::Message>> run_partition_on_rank(
    const graph::Partitioned&, const std::vector<Value<double>>&, const graph::PartitionedOptions&,
    NameSupply&, int, int, double, graph::PartitionedStats&) {
  cli::hand_over_to_full_build("MPI (mpirun)");
}

}  // namespace adlang
