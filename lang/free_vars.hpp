// Free variables FV(M) of terms and trace terms (paper Sec. 2), and collecting every name a
// term mentions (for fresh-name supplies).
#pragma once

#include "lang/name.hpp"
#include "lang/term.hpp"

namespace adlang {

// FV(t): the free ordinary variables of t.
NameSet free_vars(const Term& t);
// Adds FV(t) to `out`.
void add_free_vars(const Term& t, NameSet& out);
// Whether x occurs free in t.
bool occurs_free(Name x, const Term& t);
// Reserves in `names` every variable and function name occurring in t, bound or free.
void reserve_names(const Term& t, NameSupply& names);

}  // namespace adlang
