// Python programs in the playground: the CLI parses them with CPython's own `ast` module
// (lang/python/ast/py_parse.cpp, embedded libpython), which has no WebAssembly build here, so
// the page refuses them with a compile error (docs/playground.md).
#include "lang/diagnostics.hpp"
#include "lang/python/ast/py_parse.hpp"

namespace adlang::py {

NodePtr parse_module(const std::string& path, const std::string&) {
  throw CompileError(Diagnostic{Severity::Error,
                                SourceLoc{},
                                path + ": Python programs run in the CLI (adlang run), not in "
                                       "the playground: it has no CPython to parse them",
                                {}});
}

}  // namespace adlang::py
