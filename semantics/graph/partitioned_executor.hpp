// Execution of a partitioned tagged graph (thesis Sec. 5.4; docs/graph-partition.md).
//
// Each partition runs on its own: a node instance (node, tag) fires when its inputs with that
// tag have arrived, as in Sec. 3.2. A frame has one name on every partition that holds part of
// its function (semantics/graph/message.hpp): the partition holding a call site names the
// activations it enters and tells the others in the call's admission.
// Deadness is propagated literally (Deadness::Propagate): every node of an activation fires
// exactly once on every partition that holds it, and a Recv waiting in an untaken branch
// receives a dead token (Sec. 5.4.5). A partition frees a frame's record when every one of its
// nodes of that body has fired there and the frame's children are gone.
//
// Partitions exchange Messages through a Transport: in one process (the tests, and `adlang run
// --partitions N` without mpirun), or between MPI processes.
//
// Tokens and frames. A partition fires each node kind by the rules every executor shares
// (firing_rules.hpp) on the tokens every executor shares (token.hpp's Token), and keeps its
// frames' records by the call chain every executor shares (call_chain.hpp's CallLink and the
// key of an undefinedness). Two things differ, each because a frame spans partitions: beside
// its Token, a call site's output carries the name of the callee's frame (FrameName: a frame has
// one name on every partition, not an address), which the Sends and copied state machines of
// other partitions need; and a token leaves its partition as a Message (message.hpp), since a
// Token's bottom points at a record in this process, which the message carries by value. A
// partition's frame records count the nodes fired in them rather than what keeps them alive
// (frame.hpp's Frame): every node fires once per activation here, deadness being propagated.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "semantics/graph/executor.hpp"
#include "semantics/graph/message.hpp"
#include "semantics/graph/partition.hpp"

namespace adlang::graph {

struct PartitionedOptions {
  GraphOptions graph;  // fuel and --max-frames hold per partition; eval as for the graph
  // Ablations (the tests show each mechanism is needed): the copied state machines never
  // fire; a call site that is not entered does not send its tokens to its Returns (the
  // control edge Call_i -> Return_i of Sec. 5.4.6).
  bool run_state_machine_copies = true;
  bool call_return_edge = true;
};

struct PartitionedStats {
  std::vector<GraphStats> per_rank;
  // [from][to]: messages, bytes, dead tokens sent.
  std::vector<std::vector<std::uint64_t>> messages, bytes, dead_messages;
};

// How many node instances a partition fires before it exchanges messages, in one process and
// under MPI: large enough to amortise an exchange, small enough that a partition does not run
// far ahead of the others (the frames waiting on its messages would pile up).
inline constexpr std::size_t kFiringsPerBatch = 4096;

// One partition's executor.
class PartitionRunner {
 public:
  PartitionRunner(const Partitioned& p, std::uint32_t rank, const PartitionedOptions& options,
                  NameSupply& names);
  ~PartitionRunner();
  PartitionRunner(const PartitionRunner&) = delete;
  PartitionRunner& operator=(const PartitionRunner&) = delete;

  // The dummy constant of Sec. 5.4.7 (the main frame's control token) and the program inputs
  // placed here (one value per g.program_inputs entry).
  void start(const std::vector<Value<double>>& inputs);
  void deliver(const Message& m);
  // Fires what is ready, at most `max_firings` node instances; the messages it sends are
  // appended to `out`. Returns whether more is ready.
  bool run(std::vector<Message>& out, std::size_t max_firings = SIZE_MAX);
  // The outputs of main held here: (index, token as a Message without channel).
  std::vector<std::pair<std::uint32_t, Message>> results() const;
  // Nothing is ready to fire.
  bool idle() const;
  // Nothing waits here: no partial inputs, no message without its trigger, no frame record.
  bool quiescent() const;
  std::string waiting_summary() const;
  GraphStats stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Runs every partition in this process, round-robin (kFiringsPerBatch firings at a time),
// until nothing is left to fire; returns main's value or throws its earliest Undefined, as
// run_graph does. A run that stops with a node still waiting (a deadlock: only possible under
// an ablation) throws InternalError.
Value<double> run_partitioned(const Partitioned& p, const std::vector<Value<double>>& inputs,
                              const PartitionedOptions& options, NameSupply& names,
                              PartitionedStats* stats = nullptr);

// main's value from the results of every partition (throws the earliest Undefined).
Value<double> assemble_result(const Graph& g,
                              const std::vector<std::pair<std::uint32_t, Message>>& results);

}  // namespace adlang::graph
