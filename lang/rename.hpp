// Renaming bound variables apart (the "all binding variables are different" convention the
// paper assumes for Fig. 6), and capture-avoiding substitution of values.
#pragma once

#include "lang/name.hpp"
#include "lang/term.hpp"

namespace adlang {

// Returns a term alpha-equivalent to `t` in which every binder is different from every other
// binder, from every name in `avoid` and from every free variable of `t`. Binders that already
// satisfy this keep their names; others get fresh names from `names`. Returns `t` itself when
// nothing needs renaming.
Term rename_apart(const Term& t, const NameSet& avoid, NameSupply& names);

// t[v/x]: replaces the free occurrences of x in t by the term v, renaming binders of t that
// would capture a free variable of v. Returns `t` itself when x does not occur free in t.
Term substitute(const Term& t, Name x, const Term& v, NameSupply& names);

}  // namespace adlang
