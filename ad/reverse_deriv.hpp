// The symbolic reverse-mode derivative W.R_V(x:T. C) of trace terms, exactly as the paper's
// Fig. 6 defines it (the reference implementation; do not optimise it).
//
// Cost: the let clause differentiates its body twice (once in W.R_V(x:T. E), once in
// W.R_y(y:S. E)), so a chain of n nested lets costs about 2^n clause applications, and the
// output is full of lets, so nested differentiation is exponential in the previous level's
// output. A step budget turns runaway cases into a clear error instead of a hang.
#pragma once

#include <cstdint>

#include "lang/name.hpp"
#include "lang/term.hpp"

namespace adlang {

// Thrown when the step budget runs out.
class DerivativeTooLarge : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ReverseDerivStats {
  std::uint64_t clause_steps = 0;  // clause applications, the measure of R's work
};

// W.R_V(x:T. C) of Fig. 6, for a trace term C (Gamma[x:T] |- C : U) and values V : T and
// W : U that may have free variables. The paper's side conditions are established first: x is
// renamed if it occurs in V or W, and C's bound variables are renamed apart (the paper assumes
// "all binding variables are different"); fresh names come from `names`. The result has type
// T (Prop. 3.3). Throws DerivativeTooLarge when R would take more than `max_steps` clause
// applications, found before R starts by counting its calls on C's shape.
Term reverse_deriv(const Term& w, const Term& v, Name x, Type t, const Term& c, NameSupply& names,
                   std::uint64_t max_steps = UINT64_MAX, ReverseDerivStats* stats = nullptr);

}  // namespace adlang
