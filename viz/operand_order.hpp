// Whether a picture must say which operand of an operator is which: a trace graph draws each
// operand of op(V) as an edge into the operator's node, and for `a - b` or `a / b` the two
// edges look the same unless they are marked.
#pragma once

#include "lang/op.hpp"

namespace adlang {

// True when the operator takes more than one real and its value depends on their order: its
// argument is not a pair whose two components can be exchanged without changing the result.
// Decided from the operator table (lang/operators.hpp): the argument's shape, and the
// operator's own primal evaluated at a point and at that point with the components exchanged.
bool operands_ordered(const Op& op);

}  // namespace adlang
