// The property graph-agrees: the tagged dataflow graph (semantics/graph), static and dynamic,
// at 1 and at 4 threads, gives exactly the compiled evaluator's value in double (bit for bit),
// or an undefinedness of the same kind.
#pragma once

#include <cstdint>

#include "checker/program.hpp"
#include "checker/program_generator.hpp"
#include "checker/property_registry.hpp"

namespace adlang::checker {

Outcome graph_agrees(const Program& program, const CheckConfig& config);

// The same on a term whose free variables are `inputs`, with their values.
Outcome graph_agrees_on(const Term& term, const std::vector<std::pair<Name, Type>>& inputs,
                        const std::vector<Value<double>>& values, const CheckConfig& config);

// graph-ref-agrees: the graph's executor (semantics/graph/executor.hpp,
// config.impl.run_graph) at 1 thread, with dead tokens elided and propagated, and at 4 threads,
// gives the reference executor's result (semantics/graph/reference_executor.hpp, the firing rules
// one node at a time): the same bits, or an undefinedness of the same kind (at 1 thread at the same
// place); on a defined program at 1 thread also the same firings, dead firings, calls, frames and
// saved values.
Outcome graph_reference_agrees_on(const Term& term,
                                  const std::vector<std::pair<Name, Type>>& inputs,
                                  const std::vector<Value<double>>& values,
                                  const CheckConfig& config);

// graph-rd-agrees: with every rd lowered to reverse mode inside the graph (forward and adjoint
// bodies, docs/graph-ad.md), the graph on the static and dynamic engines, at 1 and 4 threads,
// gives the value of the compiled evaluator with the linear R within the checker's double
// tolerance (and the same bits on every engine and thread count), or an undefinedness of the
// same kind. Programs without rd are discarded.
Outcome graph_rd_agrees_on(const Term& term, const std::vector<std::pair<Name, Type>>& inputs,
                           const std::vector<Value<double>>& values, const CheckConfig& config);

// partitioned-agrees: the graph split over 2 or 3 partitions by a random placement (from
// `choices`), run in one process (semantics/graph/partitioned_executor.hpp), gives the compiled
// evaluator's value to the bit, or an undefinedness of the same kind. Runs that exhaust the
// fuel or the frames are discarded: those budgets hold per partition.
Outcome partitioned_agrees_on(const Term& term, const std::vector<std::pair<Name, Type>>& inputs,
                              const std::vector<Value<double>>& values, const CheckConfig& config,
                              Choices& choices);

}  // namespace adlang::checker
