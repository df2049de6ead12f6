// Parsing Python source with CPython's own `ast` module (`ast.parse(source, type_comments=True)`)
// through the embedded interpreter, and converting the result into the C++ mirror (py_ast.hpp).
#pragma once

#include <string>

#include "lang/diagnostics.hpp"
#include "lang/python/ast/py_ast.hpp"

namespace adlang::py {

// Parses `text` (the content of `path`). Throws CompileError (exit 3) for input that is not a
// Python module: invalid UTF-8 (with the position of the first bad byte), a syntax error (with
// CPython's message and position, column in bytes), null bytes, nesting too deep for CPython.
NodePtr parse_module(const std::string& path, const std::string& text);

// Only checks that `text` parses (the same errors as parse_module), without building the mirror.
void check_syntax(const std::string& path, const std::string& text);

// The position (1-based line, 1-based byte column) of the first byte of `text` that is not part
// of a well-formed UTF-8 sequence, or line 0 when `text` is valid UTF-8.
SourceLoc first_invalid_utf8(const std::string& text);

}  // namespace adlang::py
