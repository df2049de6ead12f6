// The names a term mentions: every variable and function name occurring in it, bound or free
// (pictures show these, the program's own names, and not the fresh names evaluation makes).
// Defined with reserve_names, which walks the same names (lang/free_vars.cpp).
#pragma once

#include "lang/name.hpp"
#include "lang/term.hpp"

namespace adlang {

NameSet mentioned_names(const Term& t);

}  // namespace adlang
