// Random programs from the checker's generator, each split over the MPI processes of this job
// by a random placement (node by node, call sites kept whole), run by all of them together:
// rank 0 compares the result with the unpartitioned graph in this process, bit for bit (or the
// same undefinedness: kind, reason and location). Run by the suite under
// `mpirun -n 2` and `-n 3` (tests/CMakeLists.txt).
// Usage: partitioned_mpi_property COUNT SEED [--verbose]  (--verbose: each program as run)
#include <mpi.h>

#include <cstring>
#include <iostream>
#include <string>

#include "checker/check_ranks.hpp"
#include "checker/program.hpp"
#include "checker/program_generator.hpp"
#include "checker/property_registry.hpp"
#include "driver/partitioned_run.hpp"
#include "lang/free_vars.hpp"
#include "semantics/graph/lower.hpp"
#include "semantics/graph/partition_on_rank.hpp"
#include "semantics/graph/placement.hpp"

namespace adlang {
namespace {

std::string outcome(const std::function<Value<double>()>& f) {
  try {
    std::string s;
    for (double d : f()) {
      std::uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      s += std::to_string(bits) + " ";
    }
    return s;
  } catch (const Undefined& e) {
    return std::string("undefined (") + to_string(e.kind()) + ") " + e.what() + " at " +
           std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col);
  }
}

int run(std::uint64_t count, std::uint64_t seed, bool verbose) {
  CheckRanks ranks = check_ranks();
  if (ranks.size < 2) {
    std::cerr << "partitioned_mpi_property: run it under mpirun -n 2 or more\n";
    return 2;
  }
  std::uint64_t tried = 0, compared = 0, failed = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    checker::Program prog = checker::generate_program(seed, i, checker::GenConfig{});
    std::vector<std::pair<Name, Type>> inputs;
    std::vector<Value<double>> values;
    for (const checker::Input& in : prog.inputs) {
      inputs.emplace_back(in.name, in.type);
      values.push_back(checker::input_value<double>(in));
    }
    graph::Graph g = graph::lower_to_graph(prog.term, inputs, graph::RdLowering::Host);
    graph::PartitionedOptions po;
    po.graph.deadness = graph::Deadness::Propagate;
    po.graph.eval.fuel = 20000;
    po.graph.eval.predicates = PredicateMode::Strict;
    use_ad(po.graph.eval, AdMode::Tape);  // what `adlang run` differentiates with
    po.graph.eval.max_derivative_steps = checker::CheckConfig{}.max_linear_derivative_steps;
    // Every rank computes the reference, so every rank skips the same programs.
    NameSupply n1;
    reserve_names(prog.term, n1);
    std::string whole = outcome([&] { return graph::run_graph(g, values, po.graph, n1); });
    ++tried;
    if (whole.find("(out of fuel") != std::string::npos ||
        whole.find("recursion beyond the fuel") != std::string::npos ||
        whole.find("undefined (Fuel)") != std::string::npos)
      continue;
    checker::Rng rng(seed ^ 0x9a7f, i);
    std::vector<std::uint32_t> rank_of(g.nodes.size());
    for (std::uint32_t& r : rank_of)
      r = rng.below(static_cast<unsigned>(ranks.size));
    graph::unite_call_sites(g, rank_of);
    graph::Partitioned p =
        graph::partition_graph(g, rank_of, static_cast<std::uint32_t>(ranks.size));
    NameSupply n2;
    reserve_names(prog.term, n2);
    graph::PartitionedStats stats;
    auto results = run_partition_on_rank(p, values, po, n2, ranks.rank, ranks.size, 30, stats);
    if (ranks.rank != 0) continue;
    ++compared;
    if (verbose)
      std::cout << "program " << i << ": " << checker::program_text(prog) << "  "
                << checker::env_arguments(prog.inputs)
                << "\n  frames on rank 0: " << stats.per_rank[0].frames_created << "\n";
    std::string split = outcome([&] { return graph::assemble_result(g, results); });
    if (split != whole) {
      ++failed;
      std::cout << "program " << i << " (seed " << seed << "):\n"
                << checker::program_text(prog)
                << "\n  inputs: " << checker::env_arguments(prog.inputs)
                << "\n  unpartitioned: " << whole << "\n  partitioned over " << ranks.size
                << " processes: " << split << "\n";
    }
  }
  int code = failed == 0 ? 0 : 1;
  if (ranks.rank == 0)
    std::cout << "partitioned-agrees under mpirun -n " << ranks.size << ": " << tried
              << " programs, " << compared << " compared, " << failed << " failed\n";
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return code;
}

}  // namespace
}  // namespace adlang

int main(int argc, char** argv) {
  if (argc != 3 && !(argc == 4 && std::string(argv[3]) == "--verbose")) {
    std::cerr << "usage: partitioned_mpi_property COUNT SEED [--verbose]\n";
    return 2;
  }
  return adlang::run(std::stoull(argv[1]), std::stoull(argv[2]), argc == 4);
}
