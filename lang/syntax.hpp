// The surface syntax tree: what the parser read, abbreviations and all (docs/design.md Sec. 3).
//
// It is untyped and keeps the user's notation (tuples, infix operators, tuple lets, grad, fd,
// comparisons) so that `adlang fmt` prints the program back as written. The type checker
// elaborates it into the core IR (lang/term.hpp).
#pragma once

#include <string>
#include <vector>

#include "lang/name.hpp"
#include "lang/op.hpp"
#include "lang/ref.hpp"
#include "lang/source.hpp"
#include "lang/type.hpp"

namespace adlang {

enum class SyntaxKind {
  Var,       // x                                      name
  Number,    // 1.5, -2 (a leading '-' folded in)      text
  Unit,      // * or ()
  Tuple,     // (a, b, c), >= 2 components            kids
  Binary,    // a + b, a - b, a * b, a / b            binop, kids = {a, b}
  Neg,       // -a                                     kids = {a}
  Call,      // name(args): function, op or predicate  name, kids = args (none for `f()`)
  Fst,       // fst a                                  kids = {a}
  Snd,       // snd a                                  kids = {a}
  Let,       // let x: T = M in N (T may be omitted)   binders = {x}, kids = {M, N}
  TupleLet,  // let (x: T, y: U) = M in N              binders, kids = {M, N}
  LetFun,    // let f(x: T): U = M in N                name = f, binders = {x}, type = U, kids
  LetRec,    // letrec f(x: T): U = M in N             as LetFun
  If,        // if B then M else N                     kids = {B, M, N}
  Rd,        // M.rd[L](x: T. N)                       binders = {x}, kids = {M, L, N}
  Fd,        // M.fd[L](x: T. N)                       binders = {x}, kids = {M, L, N}
  Grad,      // grad[L](x: T. N)                       binders = {x}, kids = {L, N}
  Compare,   // a < b, a <= b, ... (guards only)      pred, kids = {a, b}
  Bool,      // true, false (guards only)              bool_value
  Zero,      // zero[T]: 0_T                           type
  AddAt,     // add[T](a, b): a +_T b                  type, kids = {a, b}
};

enum class BinOp { Plus, Minus, Times, Divide };

struct Binder {
  Name name;
  Type type;  // null when omitted (`let x = M in N`)
  SourceLoc loc;
};

class SyntaxNode;
using Syntax = Ref<SyntaxNode>;

class SyntaxNode : public RefCounted {
 public:
  SyntaxNode(SyntaxKind k, SourceLoc l) : kind(k), loc(l) {}
  SyntaxKind kind;
  SourceLoc loc;
  std::string text;  // Number
  Name name;         // Var, Call, LetFun, LetRec
  BinOp binop = BinOp::Plus;
  PredKind pred = PredKind::Lt;  // Compare
  bool bool_value = false;       // Bool
  Type type;                     // LetFun/LetRec result type; Zero/AddAt type
  std::vector<Binder> binders;
  std::vector<Syntax> kids;
};

// def f(x: T): U = M;
struct SyntaxDef {
  Name name;
  Binder param;
  Type result_type;
  Syntax body;
  SourceLoc loc;
};

struct SyntaxProgram {
  std::vector<SyntaxDef> defs;
  Syntax main;
  // Every identifier in the program text, so that fresh names can avoid them all.
  NameSet identifiers;
};

}  // namespace adlang
