// The IR verifier (STYLE.md item 15): checks that a core term is well formed by the rules of
// Fig. 1, independently of the factories and the type checker, so that a pass that breaks an
// invariant fails where it broke it. It checks
//   - types: every node's type is the one Fig. 1 gives it from its subterms and the types of the
//     variables and functions it uses;
//   - scoping: every variable is bound (by an input, a let, a function parameter or an rd), every
//     call is of a function in scope;
//   - Fig. 1's restriction on function bodies: the body of f(x:T):U = M sees no ordinary variable
//     but x (its free variables are within {x});
//   - resolution (when asked for): every function definition has an id of its own and every call
//     carries the id of the innermost definition of its name.
// The front end runs it after each step in debug builds; `adlang check` runs it on every
// generated program; the tests run it on every program they elaborate.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lang/term.hpp"
#include "lang/vector_space.hpp"

namespace adlang {

enum class FunIds {
  MayBeUnresolved,  // after desugaring: calls by name
  Resolved,         // after resolution
};

// The first rule t breaks (with the node's kind and source location), as a sentence; nullopt if
// t is well formed with free variables `inputs`.
std::optional<std::string> ir_violation(const Term& t, const std::vector<TypedName>& inputs,
                                        FunIds ids);

// Throws InternalError("internal error: the IR verifier ...") if t is not well formed.
void verify_ir(const Term& t, const std::vector<TypedName>& inputs, FunIds ids);

// verify_ir in debug builds (NDEBUG not defined); nothing in release builds, where the front end
// is on every run's path and its steps are tested with verify_ir directly.
void debug_verify_ir(const Term& t, const std::vector<TypedName>& inputs, FunIds ids);

}  // namespace adlang
