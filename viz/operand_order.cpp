#include "viz/operand_order.hpp"

#include <vector>

#include "semantics/op_eval.hpp"

namespace adlang {

bool operands_ordered(const Op& op) {
  const OpShape shape = op.definition().arg;
  if (op.arg_size() < 2) return false;
  if (shape != OpShape::RealPair && shape != OpShape::VectorPair) return true;
  // A point inside every domain of the table, with components that differ: (a, b) and (b, a)
  // (for vectors (u, v) and (v, u)).
  std::vector<double> in(op.arg_size()), exchanged(op.arg_size());
  const std::size_t half = in.size() / 2;
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = 0.7 + 1.3 * static_cast<double>(i) + 0.11 * static_cast<double>(i * i);
  for (std::size_t i = 0; i < in.size(); ++i)
    exchanged[i] = in[(i + half) % in.size()];
  std::vector<double> out(op.result_size()), out_exchanged(op.result_size());
  eval_op<double>(op, in.data(), out.data(), SourceLoc{}, PredicateMode::Strict);
  eval_op<double>(op, exchanged.data(), out_exchanged.data(), SourceLoc{}, PredicateMode::Strict);
  return out != out_exchanged;
}

}  // namespace adlang
