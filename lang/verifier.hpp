// The IR verifier (docs/style.md item 15): checks that a core term is well formed by the rules of
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
// The passes run it on their output when ir_verification_on() (below): desugaring and
// resolution, symbolic evaluation, both Rs, and the graph's lowering and adjoint; `adlang
// check` runs it on every generated program; the tests run it on every program they elaborate.
#pragma once

#include <optional>
#include <string>
#include <string_view>
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

// Whether the passes verify their output: always in debug builds (NDEBUG not defined), and in
// release builds when the environment variable ADLANG_VERIFY is set to anything but "" or "0"
// (the test suite and CI set it). Read once per process.
bool ir_verification_on();

// When ir_verification_on(): throws InternalError("internal error: the IR verifier rejects the
// output of <pass>: ...") if t, the output of `pass`, is not well formed with free variables
// `inputs`.
void verify_pass(std::string_view pass, const Term& t, const std::vector<TypedName>& inputs,
                 FunIds ids);

// The same for an open term (a trace term, R's output): its free variables are taken as inputs
// of the type of their first occurrence, and every other occurrence must have that type.
void verify_open_pass(std::string_view pass, const Term& t);

}  // namespace adlang
