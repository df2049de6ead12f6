// The type checker (paper Fig. 1 and the admissible rules of Sec. 2's abbreviations). It
// elaborates the surface syntax into the core IR: sugar is expanded as the paper defines it
// (tuple let, grad, fd, 0_T, +_T, n-ary tuples, infix operators), and the type subscripts of
// pairs and projections are filled in. Ill-typed programs get a CompileError at the offending
// term with a note on how to fix it.
#pragma once

#include <vector>

#include "lang/syntax.hpp"
#include "lang/term.hpp"
#include "lang/vector_space.hpp"

namespace adlang {

// The front end after parsing: desugar_program, then resolve_functions (lang/resolve.hpp), with
// the IR verifier (lang/verifier.hpp) after each step in debug builds.
//
// desugar_program type-checks `program` with its free variables (its inputs) typed by
// `inputs` and elaborates it into the core IR, making any fresh name from `names` (which the
// caller has told about all names of the program). Top-level defs become one (possibly
// mutually recursive) letrec group around the main term. Calls name their functions (ids
// unresolved).
Term desugar_program(const SyntaxProgram& program, const std::vector<TypedName>& inputs,
                     NameSupply& names);

// desugar_program, then resolve_functions: the core IR every evaluator runs.
Term check_program(const SyntaxProgram& program, const std::vector<TypedName>& inputs,
                   NameSupply& names);

// The top-level definitions `defs` checked as desugar_program checks a program's defs, with the
// functions `scope` (definitions checked before, by this function: desugared, ids unresolved)
// and each other in scope: the REPL's session checks each new definition against those it
// holds (driver/session.hpp). A name of `scope` defined again is an error, as in a program.
std::vector<FunDef> check_definitions(const std::vector<FunDef>& scope,
                                      const std::vector<SyntaxDef>& defs, NameSupply& names);

// check_program for `program` with the definitions `scope` (check_definitions') in scope: the
// core IR of one letrec group, `scope` then the program's defs, around its main term. `names`
// must have taken every name of `scope` (the supply that checked it, or a copy).
Term check_program_in(const std::vector<FunDef>& scope, const SyntaxProgram& program,
                      const std::vector<TypedName>& inputs, NameSupply& names);

// check_program for a single term in the type environment `inputs` with no functions in scope.
Term check_term(const Syntax& term, const std::vector<TypedName>& inputs, NameSupply& names);

// The free variables of a surface program (its inputs), in order of first occurrence.
std::vector<Name> program_inputs(const SyntaxProgram& program);

}  // namespace adlang
