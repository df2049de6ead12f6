// The reverse derivatives op_r of the operator table (DESIGN.md Sec. 5), as trace-term
// templates over table operators. R's op clause (Fig. 6) writes W.op_r(D) for op_r(<D, W>);
// we expand it to the template, so nested differentiation only ever meets table operators.
#pragma once

#include "lang/name.hpp"
#include "lang/op.hpp"
#include "lang/term.hpp"

namespace adlang {

// op_r(<x, w>) for values x : op.arg_type() and w : op.result_type(). The values may be used
// more than once in the result (they are variables, constants or pairs of them); when x is a
// syntactic pair its components are used directly instead of fst x / snd x.
Term reverse_template(Op op, const Term& x, const Term& w, SourceLoc loc = {});

// W.op_r(D) for any trace term D and value W: the template, with D let-bound to a fresh name
// first when it is not a value (so it is evaluated once).
Term instantiate_reverse(Op op, const Term& d, const Term& w, NameSupply& names,
                         SourceLoc loc = {});

}  // namespace adlang
