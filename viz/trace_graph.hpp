// A trace term as a computation graph, in the style of micrograd's pictures: one node per
// operation of the trace with its primal value and, when a derivative is asked for, its
// adjoint. Shared subterms (a let-bound variable used twice) are one node; a constant is a
// node of its own at each use (as micrograd draws them), which keeps the picture's edges short.
//
// The trace is put in A-normal form (every operation bound to its own variable, bound
// variables renamed apart first), and evaluated binding by binding with the reference
// evaluator. The adjoint of a binding y = D followed by the rest E of the trace is the value
// of W.R_y(y:S. E), the very term Fig. 6's let clause computes for it
// (W.R_V(x. let y = D in E) = ... let y' = W.R_y(y. E) in y'.R_V(x. D)); the input's adjoint is
// W.R_V(x:T. C), the derivative itself. Both use the R of the evaluation options (--ad).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lang/name.hpp"
#include "lang/term.hpp"
#include "semantics/environment.hpp"
#include "semantics/eval_context.hpp"

namespace adlang {

struct TraceGraphNode {
  enum class Kind {
    Input,      // a free variable of the trace (a program input)
    Constant,   // a literal or *
    Operation,  // op(V), V + W, fst V, snd V, a tuple
  };
  Kind kind = Kind::Operation;
  // The names the program's text gives it: an input's name, the user's let-bound variables
  // and parameters bound to it; never the fresh names of the trace (x_1, t_2).
  std::vector<std::string> names;
  std::string label;  // Operation: "sin", "+", "a - b", "fst", "(a, b)"; Constant: its text
  std::string value;  // the primal value, printed in full
  std::optional<std::string> adjoint;
  std::vector<std::size_t> operands;  // indices of earlier nodes
  // Where the operands' order matters (a - b, a / b, a tuple, scale_n: viz/operand_order.hpp),
  // the name of each operand in the label ("a", "b") or its position ("1", "2", ...); empty
  // where it does not (a + b, a * b, sin).
  std::vector<std::string> operand_labels;
};

struct TraceGraph {
  std::vector<TraceGraphNode> nodes;
  std::size_t output = 0;  // the node of the trace's result
  std::string wrt;         // the input differentiated with respect to (empty: none)
  std::string cotangent;   // W, printed
};

// Adjoints to compute: of every binding and of input `wrt`, for the cotangent `w` (a closed
// value term of the trace's type).
struct AdjointRequest {
  Name wrt;
  Type wrt_type;
  Term cotangent;
};

// The graph of `trace` under `rho` (its free variables' values); `user_names` are the names
// the program's text mentions (lang/mentioned_names.hpp), the only ones a node shows. Throws
// Undefined where the trace is undefined, and when it has more than `max_nodes` operations (a
// picture of more is unreadable).
template <class S>
TraceGraph trace_graph(const Term& trace, const ValueEnv<S>& rho, const NameSet& user_names,
                       const std::optional<AdjointRequest>& adjoints, EvalContext& cx,
                       std::size_t max_nodes = 400);

}  // namespace adlang
