// adlang run --engine graph --partitions N: the partitioned tagged graph (thesis Sec. 5.4;
// docs/graph-partition.md). A plain process runs every partition itself; under
// `mpirun -n N`, MPI process r runs partition r (semantics/graph/partition_on_rank.hpp), and rank 0
// reports the result (every rank exits with its code).
#pragma once

#include <ostream>
#include <string>

#include "driver/command_options.hpp"
#include "semantics/graph/partition.hpp"
#include "semantics/graph/partitioned_executor.hpp"

namespace adlang {

int run_partitioned_command(const RunCommandOptions& opts, std::ostream& out, std::ostream& err);

// The placement of `g` by `place` (or by `fallback`, a script's own tf.device blocks, when
// `place` is empty) over `partitions`; CommandFailure (usage) for a bad option.
graph::Partitioned partition_for(const graph::Graph& g, const std::vector<std::string>& place,
                                 const std::vector<std::string>& fallback,
                                 std::uint32_t partitions);

// The counts of --stats for a partitioned run: per partition, and messages per pair.
std::string partitioned_stats_text(const graph::Partitioned& p, const graph::PartitionedStats& st);

}  // namespace adlang
