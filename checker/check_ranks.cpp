#include "checker/check_ranks.hpp"

#ifndef ADLANG_NO_MPI
#include <mpi.h>
#endif

#include <cstdlib>
#include <limits>

#include "checker/term_edit.hpp"

namespace adlang {

#ifndef ADLANG_NO_MPI
namespace {

constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();

void finalize() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

// The strings of a counterexample, sent as one buffer: each string's length, then its bytes.
std::string pack(const RenderedCounterexample& c) {
  std::string out;
  auto put = [&](const std::string& s) {
    std::uint64_t n = s.size();
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out += s;
  };
  for (std::uint64_t v : {c.seed, c.index, c.shrink_steps, c.nodes})
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
  for (const std::string* s : {&c.property, &c.program, &c.env, &c.detail})
    put(*s);
  return out;
}

RenderedCounterexample unpack(const std::string& in) {
  RenderedCounterexample c;
  std::size_t at = 0;
  auto word = [&] {
    std::uint64_t v = 0;
    in.copy(reinterpret_cast<char*>(&v), sizeof v, at);
    at += sizeof v;
    return v;
  };
  c.seed = word();
  c.index = word();
  c.shrink_steps = word();
  c.nodes = word();
  for (std::string* s : {&c.property, &c.program, &c.env, &c.detail}) {
    std::uint64_t n = word();
    *s = in.substr(at, n);
    at += n;
  }
  return c;
}

}  // namespace
#endif

RenderedCounterexample render(const checker::Counterexample& c) {
  RenderedCounterexample r;
  r.property = c.property;
  r.seed = c.seed;
  r.index = c.index;
  r.shrink_steps = c.shrink_steps;
  r.nodes = checker::node_count(c.shrunk.term);
  r.program = checker::program_text(c.shrunk);
  r.env = checker::env_arguments(c.shrunk.inputs);
  r.detail = c.detail;
  return r;
}

#ifdef ADLANG_NO_MPI
// The playground (docs/playground.md) and the lean adlang (docs/performance.md, "Start-up"),
// which hands every process started by mpirun over to adlang-full, have no MPI: a run is one
// process.
CheckRanks check_ranks() {
  return {};
}

int abort_ranks(const CheckRanks&, int code) {
  return code;
}

int broadcast_exit_code(const CheckRanks&, int code) {
  return code;
}

void merge_ranks(const CheckRanks&, std::vector<checker::PropertySummary>&,
                 std::vector<RenderedCounterexample>&) {}
#else
CheckRanks check_ranks() {
  // OpenMPI's launcher sets OMPI_COMM_WORLD_SIZE; a plain process does not start MPI at all.
  if (std::getenv("OMPI_COMM_WORLD_SIZE") == nullptr) return {};
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    MPI_Init(nullptr, nullptr);
    std::atexit(finalize);
  }
  CheckRanks r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r.size);
  return r;
}

int abort_ranks(const CheckRanks& ranks, int code) {
  if (ranks.size > 1) MPI_Abort(MPI_COMM_WORLD, code);
  return code;
}

int broadcast_exit_code(const CheckRanks& ranks, int code) {
  if (ranks.size > 1) MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return code;
}

void merge_ranks(const CheckRanks& ranks, std::vector<checker::PropertySummary>& properties,
                 std::vector<RenderedCounterexample>& counterexamples) {
  if (ranks.size == 1) return;
  const int n = static_cast<int>(properties.size());
  // Counts: summed; seconds: the slowest rank (the wall time of the run); first failure: the
  // smallest index over the ranks.
  std::vector<std::uint64_t> counts, firsts;
  std::vector<double> seconds;
  for (const auto& p : properties) {
    counts.insert(counts.end(), {p.tried, p.passed, p.failed, p.both_undefined, p.discarded});
    firsts.push_back(p.first_failure.value_or(kNone));
    seconds.push_back(p.seconds);
  }
  std::vector<std::uint64_t> counts_sum(counts.size()), firsts_min(firsts.size());
  std::vector<double> seconds_max(seconds.size());
  MPI_Allreduce(counts.data(), counts_sum.data(), static_cast<int>(counts.size()), MPI_UINT64_T,
                MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(firsts.data(), firsts_min.data(), n, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(seconds.data(), seconds_max.data(), n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 0; i < n; ++i) {
    auto& p = properties[static_cast<std::size_t>(i)];
    const std::uint64_t* c = &counts_sum[static_cast<std::size_t>(5 * i)];
    p.tried = c[0];
    p.passed = c[1];
    p.failed = c[2];
    p.both_undefined = c[3];
    p.discarded = c[4];
    p.seconds = seconds_max[static_cast<std::size_t>(i)];
    std::uint64_t first = firsts_min[static_cast<std::size_t>(i)];
    p.first_failure = first == kNone ? std::nullopt : std::optional<std::uint64_t>(first);
  }
  // Each property's first counterexample goes from the rank that found it to rank 0, in the
  // order of the properties (the order of the single-process report).
  std::vector<RenderedCounterexample> merged;
  for (int i = 0; i < n; ++i) {
    const auto& p = properties[static_cast<std::size_t>(i)];
    if (!p.first_failure) continue;
    const RenderedCounterexample* mine = nullptr;
    for (const auto& c : counterexamples)
      if (c.property == p.name && c.index == *p.first_failure) mine = &c;
    int owner = mine ? ranks.rank : ranks.size;
    int found = 0;
    MPI_Allreduce(&owner, &found, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (found == 0) {
      if (ranks.rank == 0) merged.push_back(*mine);
      continue;
    }
    if (ranks.rank == found) {
      std::string buf = pack(*mine);
      MPI_Send(buf.data(), static_cast<int>(buf.size()), MPI_CHAR, 0, i, MPI_COMM_WORLD);
    } else if (ranks.rank == 0) {
      MPI_Status st;
      MPI_Probe(found, i, MPI_COMM_WORLD, &st);
      int len = 0;
      MPI_Get_count(&st, MPI_CHAR, &len);
      std::string buf(static_cast<std::size_t>(len), '\0');
      MPI_Recv(buf.data(), len, MPI_CHAR, found, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      merged.push_back(unpack(buf));
    }
  }
  if (ranks.rank == 0) counterexamples = std::move(merged);
}
#endif

}  // namespace adlang
