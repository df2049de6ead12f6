// The restrictions of the rewrite document's Sec. 2.1 that are properties of the whole module
// (the others are checked by the rules where they matter): 1 imports at the top, 2 the tensorflow
// module bound only by import, 3 members of tensorflow not aliased, 5 and 10 datasets, optimizers
// and checkpoints created once and not aliased. Each violation is a warning saying which
// restriction and what may go wrong.
#pragma once

#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/python/ast/py_ast.hpp"

namespace adlang::py {

std::vector<Diagnostic> check_restrictions(const Node& module);

}  // namespace adlang::py
