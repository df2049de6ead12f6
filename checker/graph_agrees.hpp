// The property graph-agrees: the tagged dataflow graph (semantics/graph), static and dynamic,
// at 1 and at 4 threads, gives exactly the compiled evaluator's value in double (bit for bit),
// or an undefinedness of the same kind.
#pragma once

#include <cstdint>

#include "checker/program.hpp"
#include "checker/properties.hpp"

namespace adlang::checker {

Outcome graph_agrees(const Program& program, const CheckConfig& config);

}  // namespace adlang::checker
