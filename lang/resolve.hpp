// Function resolution, the last front-end step: every function definition gets its own id and
// every call the id of the definition it calls (the innermost one of that name in scope, Fig. 1's
// Phi), so that later passes call by id and never look a function up by name.
#pragma once

#include "lang/term.hpp"

namespace adlang {

// A fresh function id, different from every id handed out before in this process.
FunId fresh_fun_id();

// t with fresh ids on all its function definitions and the matching id on every call.
// Precondition: every call is of a function in scope (the type checker has checked that);
// throws InternalError otherwise.
Term resolve_functions(const Term& t);

}  // namespace adlang
