// The rules' statement lists, and how a block's list becomes edits of the original text.
//
// trans_S returns a Stmt list. Here a list element is either an original statement (kept where it
// is, with edits inside its span, and possibly guarded by `if <cond>:`) or a new statement given
// as code. emit_block turns the list the rules computed for a block back into edits: kept
// statements stay byte-identical apart from their inner edits, new statements are inserted with
// the indentation of the block (next to the statement whose rule produced them), statements the
// rules dropped are removed (a block left empty gets `pass`).
#pragma once

#include <string>
#include <vector>

#include "lang/python/ast/py_ast.hpp"
#include "pyrewrite/environment.hpp"
#include "pyrewrite/source_layout.hpp"
#include "pyrewrite/text_edit.hpp"

namespace adlang::py {

struct OutStmt {
  const Node* original = nullptr;  // the original statement, or null for a new one
  Edits edits;                     // original: edits inside its span
  std::string guard;               // original: when set, it runs under `if <guard>:`
  std::string code;                // new: its code; lines joined by '\n', nested lines indented
                                   // by four spaces (re-indented to the file's unit)
  const Node* source = nullptr;    // the input statement whose rule produced this element

  static OutStmt keep(const Node& s, Edits e = {}) {
    OutStmt o;
    o.original = &s;
    o.edits = std::move(e);
    return o;
  }
  static OutStmt fresh(std::string code) {
    OutStmt o;
    o.code = std::move(code);
    return o;
  }
};

using StmtList = std::vector<OutStmt>;

// trans_S and trans_S̄ return a Stmt list and an environment.
struct StmtResult {
  StmtList stmts;
  Env env;
};

// Edits that turn the block `original` (the statements of `owner`'s body, or of the module when
// owner is null) into `out`. Throws InternalError when `out` reorders or invents originals.
Edits emit_block(const std::vector<NodePtr>& original, const StmtList& out,
                 const SourceLayout& layout, const Node* owner);

}  // namespace adlang::py
