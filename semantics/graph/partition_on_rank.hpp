// adlang run --partitions N under `mpirun -n N`: MPI process r runs partition r (thesis
// Sec. 5.4; docs/graph-partition.md). The lean adlang (docs/performance.md, "Start-up") hands
// every run under mpirun over to adlang-full, which links MPI.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "semantics/graph/partitioned_executor.hpp"

namespace adlang {

// Runs partition `rank` of `p` in this MPI process while the other ranks run theirs (every
// rank calls it, with the same partitioning). On rank 0, returns the outputs of main of every
// partition (graph::assemble_result gives the value) and fills `stats`; elsewhere returns none.
// A partition that stops answering for `progress_timeout` seconds ends the job (exit 6); an
// exception on one rank ends it too (exit 5), since the others would wait for it.
std::vector<std::pair<std::uint32_t, graph::Message>> run_partition_on_rank(
    const graph::Partitioned& p, const std::vector<Value<double>>& inputs,
    const graph::PartitionedOptions& options, NameSupply& names, int rank, int size,
    double progress_timeout, graph::PartitionedStats& stats);

}  // namespace adlang
