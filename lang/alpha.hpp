// Alpha-equivalence of terms (paper Sec. 2: "we do not distinguish alpha-equivalent terms").
#pragma once

#include "lang/term.hpp"

namespace adlang {

// True when a and b are equal up to the names of bound variables (and bound function names).
// Literals compare by their text, so `1` and `1.0` differ.
bool alpha_equivalent(const Term& a, const Term& b);
bool alpha_equivalent(const BoolTerm& a, const BoolTerm& b);

}  // namespace adlang
