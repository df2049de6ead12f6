// adlang run --engine graph --partitions N: the partitioned tagged graph (thesis Sec. 5.4;
// docs/graph-partition.md). A plain process runs every partition itself; under
// `mpirun -n N`, MPI process r runs partition r, and rank 0 reports the result (every rank
// exits with its code).
#pragma once

#include <ostream>
#include <string>

#include "cli/command_options.hpp"
#include "semantics/graph/partition.hpp"
#include "semantics/graph/partitioned_executor.hpp"

namespace adlang {

int run_partitioned_command(const RunCommandOptions& opts, std::ostream& out, std::ostream& err);

// Runs partition `rank` of `p` in this MPI process while the other ranks run theirs (every
// rank calls it, with the same partitioning). On rank 0, returns the outputs of main of every
// partition (graph::assemble_result gives the value) and fills `stats`; elsewhere returns none.
// A partition that stops answering for `progress_timeout` seconds ends the job (exit 6); an
// exception on one rank ends it too (exit 5), since the others would wait for it.
std::vector<std::pair<std::uint32_t, graph::Message>> run_partition_on_rank(
    const graph::Partitioned& p, const std::vector<Value<double>>& inputs,
    const graph::PartitionedOptions& options, NameSupply& names, int rank, int size,
    double progress_timeout, graph::PartitionedStats& stats);

// The placement of `g` by `place` (or by `fallback`, a script's own tf.device blocks, when
// `place` is empty) over `partitions`; CommandFailure (usage) for a bad option.
graph::Partitioned partition_for(const graph::Graph& g, const std::vector<std::string>& place,
                                 const std::vector<std::string>& fallback,
                                 std::uint32_t partitions);

// The counts of --stats for a partitioned run: per partition, and messages per pair.
std::string partitioned_stats_text(const graph::Partitioned& p, const graph::PartitionedStats& st);

}  // namespace adlang
