// adlang check across processes: under `mpirun -n N adlang check ...` (OpenMPI), rank r of N
// runs the programs i with i mod N = r (the shard r/N of the run, or of the --shard given),
// and rank 0 merges the tables and keeps, for each property, the counterexample of the
// program with the smallest index: the one the single-process run reports, since program i
// and its shrinking depend only on (seed, i). docs/checker.md.
#pragma once

#include <string>
#include <vector>

#include "checker/runner.hpp"

namespace adlang {

// A counterexample as `adlang check` prints it: everything rendered, so that ranks can send
// it to each other as text.
struct RenderedCounterexample {
  std::string property;
  std::uint64_t seed = 0, index = 0;
  std::uint64_t shrink_steps = 0, nodes = 0;
  std::string program, env, detail;
};

RenderedCounterexample render(const checker::Counterexample& c);

// The processes of this run: true when started by mpirun (then MPI is initialised here and
// finalised at exit), false for a plain process.
struct CheckRanks {
  int rank = 0, size = 1;
};
CheckRanks check_ranks();

// Merges every rank's summaries and counterexamples into rank 0's (the other ranks' are left
// as they are). Collective: every rank calls it with the same properties in the same order.
void merge_ranks(const CheckRanks& ranks, std::vector<checker::PropertySummary>& properties,
                 std::vector<RenderedCounterexample>& counterexamples);

// Ends every rank with `code` when this one cannot go on (bad options, a time budget): the
// others would wait for it in merge_ranks. Returns `code` for a single process.
int abort_ranks(const CheckRanks& ranks, int code);

// Rank 0's `code` on every rank (collective); `code` itself for a single process.
int broadcast_exit_code(const CheckRanks& ranks, int code);

}  // namespace adlang
