// The Python abstract syntax of the rewrite document (seed 002, Sec. 1) mirrored in C++: module,
// stmt, expr, comprehension, exc_handler, args, arg, keyword, alias, with_item, match_case,
// pattern, constant. The nodes are read from CPython's own `ast` module (py_parse.hpp), so the
// grammar is exactly Python's; each node keeps its source span.
//
// One list of node kinds (docs/style.md item 1): ADLANG_PY_NODE_KINDS names every kind, its
// category (the seed's syntactic class) and its fields in CPython's order. The kind enum, the
// category table and the field tables are generated from it; a node kind CPython produces that is
// not in the list is rejected by name when parsing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lang/source.hpp"

namespace adlang::py {

enum class Category {
  Module,         // module ::= stmt* type_ignore
  Stmt,           // stmt
  Expr,           // expr (constant is the Constant kind)
  Pattern,        // pattern (match statements)
  Comprehension,  // comprehension ::= (async)? for expr in expr (if expr)*
  ExcHandler,     // exc_handler ::= except expr? (as id)? : stmt*
  Arguments,      // args
  Arg,            // arg ::= id expr? s?
  Keyword,        // keyword ::= id? = expr
  Alias,          // alias ::= id (.id)* (as id)?
  WithItem,       // with_item ::= expr (as expr)?
  MatchCase,      // match_case ::= case pattern (if expr)? : stmt*
  TypeIgnore,     // type_ignore
};

// X(Kind, Category, "fields in CPython's order"). The seed's production name is in the comment
// where it differs from CPython's class name.
#define ADLANG_PY_NODE_KINDS(X)                                                              \
  X(Module, Module, "body type_ignores")                                     /* ModuleDef */ \
  X(FunctionDef, Stmt, "name args body decorator_list returns type_comment") /* FunDef */    \
  X(AsyncFunctionDef, Stmt, "name args body decorator_list returns type_comment")            \
  X(ClassDef, Stmt, "name bases keywords body decorator_list")                               \
  X(Return, Stmt, "value")                                                                   \
  X(Delete, Stmt, "targets")                                                                 \
  X(Assign, Stmt, "targets value type_comment")                                              \
  X(AugAssign, Stmt, "target op value")                                                      \
  X(AnnAssign, Stmt, "target annotation value simple")                                       \
  X(For, Stmt, "target iter body orelse type_comment")      /* ForLoop */                    \
  X(AsyncFor, Stmt, "target iter body orelse type_comment") /* AsyncForLoop */               \
  X(While, Stmt, "test body orelse")                        /* WhileLoop */                  \
  X(If, Stmt, "test body orelse")                                                            \
  X(With, Stmt, "items body type_comment")                                                   \
  X(AsyncWith, Stmt, "items body type_comment")                                              \
  X(Match, Stmt, "subject cases")                                                            \
  X(Raise, Stmt, "exc cause")                                                                \
  X(Try, Stmt, "body handlers orelse finalbody")                                             \
  X(TryStar, Stmt, "body handlers orelse finalbody")                                         \
  X(Assert, Stmt, "test msg")                                                                \
  X(Import, Stmt, "names")                                                                   \
  X(ImportFrom, Stmt, "module names level")                                                  \
  X(Global, Stmt, "names")                                                                   \
  X(Nonlocal, Stmt, "names")                                                                 \
  X(Expr, Stmt, "value") /* ExprStmt */                                                      \
  X(Pass, Stmt, "")                                                                          \
  X(Break, Stmt, "")                                                                         \
  X(Continue, Stmt, "")                                                                      \
  X(BoolOp, Expr, "op values")                                                               \
  X(NamedExpr, Expr, "target value")                                                         \
  X(BinOp, Expr, "left op right") /* BinaryOp */                                             \
  X(UnaryOp, Expr, "op operand")                                                             \
  X(Lambda, Expr, "args body")                                                               \
  X(IfExp, Expr, "test body orelse")                                                         \
  X(Dict, Expr, "keys values") /* Dictionary */                                              \
  X(Set, Expr, "elts")                                                                       \
  X(ListComp, Expr, "elt generators")                                                        \
  X(SetComp, Expr, "elt generators")                                                         \
  X(DictComp, Expr, "key value generators")                                                  \
  X(GeneratorExp, Expr, "elt generators") /* GeneratorComp */                                \
  X(Await, Expr, "value")                                                                    \
  X(Yield, Expr, "value")                                                                    \
  X(YieldFrom, Expr, "value")                                                                \
  X(Compare, Expr, "left ops comparators") /* CompOp */                                      \
  X(Call, Expr, "func args keywords")                                                        \
  X(FormattedValue, Expr, "value conversion format_spec")                                    \
  X(JoinedStr, Expr, "values")                                                               \
  X(Constant, Expr, "value kind")                                                            \
  X(Attribute, Expr, "value attr ctx")                                                       \
  X(Subscript, Expr, "value slice ctx")                                                      \
  X(Starred, Expr, "value ctx")                                                              \
  X(Name, Expr, "id ctx")                                                                    \
  X(List, Expr, "elts ctx")                                                                  \
  X(Tuple, Expr, "elts ctx")                                                                 \
  X(Slice, Expr, "lower upper step")                                                         \
  X(MatchValue, Pattern, "value")                                                            \
  X(MatchSingleton, Pattern, "value")                                                        \
  X(MatchSequence, Pattern, "patterns")                                                      \
  X(MatchMapping, Pattern, "keys patterns rest")                                             \
  X(MatchClass, Pattern, "cls patterns kwd_attrs kwd_patterns")                              \
  X(MatchStar, Pattern, "name")                                                              \
  X(MatchAs, Pattern, "pattern name") /* MatchAs, MatchWildcard */                           \
  X(MatchOr, Pattern, "patterns")                                                            \
  X(comprehension, Comprehension, "target iter ifs is_async")                                \
  X(ExceptHandler, ExcHandler, "type name body")                                             \
  X(arguments, Arguments, "posonlyargs args vararg kwonlyargs kw_defaults kwarg defaults")   \
  X(arg, Arg, "arg annotation type_comment")                                                 \
  X(keyword, Keyword, "arg value")                                                           \
  X(alias, Alias, "name asname")                                                             \
  X(withitem, WithItem, "context_expr optional_vars")                                        \
  X(match_case, MatchCase, "pattern guard body")                                             \
  X(TypeIgnore, TypeIgnore, "lineno tag")

enum class Kind {
#define ADLANG_PY_KIND_ENUM(kind, category, fields) kind,
  ADLANG_PY_NODE_KINDS(ADLANG_PY_KIND_ENUM)
#undef ADLANG_PY_KIND_ENUM
};

// CPython's class name of `k` ("Call", "withitem").
std::string_view kind_name(Kind k);
Category category(Kind k);
// The field names of `k`, in CPython's order.
const std::vector<std::string_view>& field_names(Kind k);
// The kind named `name`, or false when CPython's class is not one this mirror knows.
bool kind_from_name(std::string_view name, Kind& out);

// A source span as CPython gives it: 1-based lines, 0-based columns counted in UTF-8 bytes.
// line == 0 means the node has no location (arguments, comprehension, withitem, match_case).
struct Span {
  std::uint32_t line = 0;
  std::uint32_t col = 0;
  std::uint32_t end_line = 0;
  std::uint32_t end_col = 0;
  bool known() const { return line != 0; }
};

struct Node;
using NodePtr = std::shared_ptr<const Node>;

// One field of a node. Identifiers, strings, operators (their class name: "Add", "Eq"),
// expression contexts ("Load") and the repr of constants are text; counts and flags are ints;
// lists of identifiers (Global.names, MatchClass.kwd_attrs) are `names`.
struct Field {
  enum class Tag { None, Node, List, Text, Int, Names };
  Tag tag = Tag::None;
  NodePtr node;
  std::vector<NodePtr> list;  // a None inside a list (Dict keys for `**d`) is a null pointer
  std::string text;
  long long integer = 0;
  std::vector<std::string> names;
};

// The Python type of a Constant's value: the seed's constant productions.
enum class ConstantType { None, Bool, Int, Float, Complex, Str, Bytes, Ellipsis, Other };

// An immutable node of the abstract syntax. Built only by the parser.
struct Node {
  Kind kind;
  Span span;
  std::vector<Field> fields;  // in field_names(kind) order
  // Constants only: the value's type, and for str constants the value itself.
  ConstantType constant_type = ConstantType::Other;
  std::string str_value;

  bool is(Kind k) const { return kind == k; }
  const Field& field(std::string_view name) const;
  // The node in field `name`, or nullptr when it is None.
  const Node* child(std::string_view name) const;
  const std::vector<NodePtr>& list(std::string_view name) const;
  const std::string& text(std::string_view name) const;  // empty when None
  bool has(std::string_view name) const { return field(name).tag != Field::Tag::None; }
};

// Where a diagnostic about `n` points: its line, and its column counted from 1.
inline SourceLoc loc_of(const Node& n) {
  return SourceLoc{n.span.line, n.span.col + 1};
}

// Typed views used by the rules. Each asserts the node's kind (InternalError otherwise).
// Call: expr_1 (expr_11 ... expr_1n (id_1 =)? expr_21 ... (id_k =)? expr_2k)
const Node& call_func(const Node& call);
const std::vector<NodePtr>& call_args(const Node& call);
const std::vector<NodePtr>& call_keywords(const Node& call);
// The keyword named `name` of a call, or nullptr.
const Node* find_keyword(const Node& call, std::string_view name);
// The statements of a block field (body, orelse, finalbody) of a statement or handler.
const std::vector<NodePtr>& block(const Node& n, std::string_view field);

}  // namespace adlang::py
