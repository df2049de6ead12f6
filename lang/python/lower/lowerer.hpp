// The lowering of one Python module (python_lowering.hpp): the scopes, the functions it knows,
// and the rules for statements, expressions and the module, one method per construct. Internal
// to lang/python/lower.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lang/name.hpp"
#include "lang/python/ast/py_ast.hpp"
#include "lang/python/lower/python_lowering.hpp"
#include "lang/python/lower/shape.hpp"
#include "lang/syntax.hpp"

namespace adlang::py {

// A lowered expression: its surface syntax and the shape of its value.
struct Value {
  Syntax syntax;
  Shape shape;
};

// What a Python name means at a point of the program.
struct Binding {
  enum class Kind {
    Value,    // a variable of the language (a let, a parameter, an input)
    Thunk,    // a nested `def f():` or `lambda:` used as a branch of tf.cond: inlined
    Session,  // the `sess` of `with tf.Session() as sess`
    Opaque,   // a configuration object (tf.train.ClusterSpec) that only placement uses
    // A name assigned on some paths only (one branch of an if, a loop's body when it was not
    // defined before the loop): Python's NameError on the other paths is not lowered, so a
    // use is refused.
    Unbound,
  };
  Kind kind = Kind::Value;
  Name name;
  Shape shape;
  const Node* thunk = nullptr;      // FunctionDef or Lambda
  const Node* assigned = nullptr;   // Unbound: where it is assigned
  const Node* statement = nullptr;  // Unbound: the if or loop that assigns it
};
using Scope = std::map<std::string, Binding>;

// A function of the program: a top-level def, a Declare/Defun pair, or a loop.
struct FunctionInfo {
  Name name;                        // the function of the language
  const Node* def = nullptr;        // its FunctionDef (loops: none)
  std::vector<std::string> params;  // Python parameter names
  std::vector<Shape> param_shapes;
  // Parameters without an annotation: a tuple shape is inferred from the calls (see run()).
  std::vector<bool> param_inferred;
  Shape result;
  bool result_fixed = false;  // declared (Declare's out types, a return annotation)
  SourceLoc loc;
};

// What follows a block: the rest of the enclosing block, or the end of the module.
struct Tail {
  std::function<Value(Scope&)> rest;
  bool module_end = false;
};

class Lowerer {
 public:
  explicit Lowerer(const Node& module);
  LoweredPython run();

 private:
  // ---- module (module_lowering.cpp)
  void collect_identifiers(const Node& n);
  void collect_module();
  void collect_import(const Node& s);
  void collect_declare(const Node& target, const Node& call);
  void collect_def(const Node& def);
  void collect_constant(const Node& s);
  Shape tf_dtype_shape(const Node& dtype);
  Shape annotation_shape(const Node* annotation);
  SyntaxDef lower_function(const FunctionInfo& f);
  Value lower_module_body();
  bool module_statement(const std::vector<NodePtr>& stmts, std::size_t i, Scope& scope,
                        const Tail& tail, Value& out);
  Value session_run(const Node& call, Scope& scope);

  // ---- statements (statement_lowering.cpp)
  Value lower_block(const std::vector<NodePtr>& stmts, std::size_t i, Scope scope,
                    const Tail& tail);
  Value lower_assign(const std::vector<NodePtr>& stmts, std::size_t i, Scope& scope,
                     const Tail& tail);
  Value lower_if(const std::vector<NodePtr>& stmts, std::size_t i, Scope& scope, const Tail& tail);
  Value lower_loop(const std::vector<NodePtr>& stmts, std::size_t i, Scope& scope,
                   const Tail& tail);
  Value lower_with(const std::vector<NodePtr>& stmts, std::size_t i, Scope& scope,
                   const Tail& tail);
  Value lower_thunk(const Node& thunk, Scope scope);
  // After an if or a loop: the names it assigns that are not bound on every path.
  void mark_unbound(const Node& statement, const std::vector<std::string>& names, Scope& scope);
  Value bind_targets(const Node& target, const Value& v, Scope& scope,
                     const std::function<Value(Scope&)>& body, SourceLoc loc);

  // ---- expressions (expression_lowering.cpp)
  Value lower_expr(const Node& e, Scope& scope);
  Value lower_name(const Node& e, Scope& scope);
  Value lower_constant(const Node& e);
  Value lower_binop(const Node& e, Scope& scope);
  Value lower_unary(const Node& e, Scope& scope);
  Value lower_compare_value(const Node& e, Scope& scope);
  Value lower_boolop(const Node& e, Scope& scope);
  Value lower_subscript(const Node& e, Scope& scope);
  Value lower_attribute(const Node& e);
  Value lower_call(const Node& e, Scope& scope);
  Value lower_user_call(const Node& e, const FunctionInfo& f, Scope& scope);
  Value lower_library_call(const Node& e, const std::string& qualified, Scope& scope);
  Value lower_cond_call(const Node& e, Scope& scope);
  Value lower_branch(const Node& fn, Scope& scope);
  Value lower_gradients(const Node& e, Scope& scope);
  // A guard: `test` as the condition of if/while/tf.cond (Python's truth of its value).
  Syntax lower_guard(const Node& test, Scope& scope, bool& negated);
  Value conditional(const Node& test, Scope& scope, Value then_v, Value else_v, SourceLoc loc);
  std::vector<Value> positional_args(const Node& call, Scope& scope, std::size_t min,
                                     std::size_t max, const std::set<std::string>& ignored_kw);

  // ---- the order of the module's global names (Python binds them when their statement runs)
  // A read of the global `py` (a constant, a function, an import) at `at`: at the top level it
  // must already be bound; inside a def it is recorded, and checked where the def is called.
  void use_global(const Node& at, const std::string& py);
  // A call of the program's function `f` (Python name `py`) at `at`.
  void use_function(const Node& at, const std::string& py, const FunctionInfo& f);
  // `math.sqrt`, `tf.cond`: the module the dotted name `e` starts with must be imported.
  void check_imported(const Node& e, const Scope& scope);

  // ---- shared
  std::optional<std::string> qualified_name(const Node& e) const;
  const FunctionInfo* function_named(const std::string& python_name) const;
  Name ad_name(const std::string& python_name) const;
  Name fresh(const std::string& base);
  SourceLoc loc(const Node& n) const;
  [[noreturn]] void refuse(const Node& n, const std::string& message,
                           std::vector<std::string> notes = {}) const;
  Syntax shared(Syntax s, std::vector<std::pair<Name, Syntax>>& lets);
  static Syntax wrap_lets(const std::vector<std::pair<Name, Syntax>>& lets, Syntax body);

  const Node& module_;
  std::set<std::string> identifiers_;
  std::map<std::string, Name> renamed_;            // Python names that are keywords of ours
  std::map<std::string, std::string> imports_;     // local name -> qualified module/object
  std::map<std::string, FunctionInfo> functions_;  // by the Python name that calls it
  std::map<std::string, Value> constants_;         // globals bound once to a number
  std::map<std::string, const Node*> declares_;    // Declare'd TF name -> its call
  // The func_name of each @function.Defun that no function.Declare names, with its value's node.
  std::vector<std::pair<std::string, const Node*>> unmatched_defuns_;
  std::map<std::string, const Node*> module_assigned_;  // top-level names -> first assignment

  // Per lowering pass (run() repeats until the functions' result shapes are stable).
  NameSupply names_;
  NameSupply base_names_;
  std::vector<Name> generated_;
  std::vector<SyntaxDef> loop_defs_;
  std::string current_function_;
  LoweredPython out_;
  struct TopBinding {
    std::string python;
    Name name;
    Shape shape;
    Syntax syntax;  // null: an input (placeholder)
  };
  std::vector<TopBinding> top_;  // the module's simple bindings in order, for tf.gradients
  bool top_opaque_ = false;      // a compound statement interrupted them
  bool in_module_ = false;
  bool in_loop_ = false;
  // The def being lowered (its function of the language; empty elsewhere) and its locals
  // (parameters and the names it assigns: Python's local variables of the whole def).
  std::string def_;
  std::string current_def_python_;
  std::set<std::string> def_locals_;
  struct GlobalUse {
    const Node* at;
    std::string function;  // the Python name of the def that reads it
  };
  // Per def (by its function): the globals it reads, and the functions it calls.
  std::map<std::string, std::map<std::string, GlobalUse>> def_globals_;
  std::map<std::string, std::set<std::string>> def_calls_;
  std::set<std::string> executed_;  // the globals the top level has bound so far
  // Globals (imports, assignments) the top level binds in one branch of an if only -> that if:
  // after it they are bound on one path only (Python's NameError on the other).
  std::map<std::string, const Node*> partial_globals_;
  Shape body_shape_;  // of the last function lower_function lowered
  // Per function (by its function of the language): the shapes of the arguments of its calls.
  std::map<std::string, std::vector<std::vector<Shape>>> call_shapes_;
};

// The names a block assigns (not inside nested functions), in order of first assignment.
std::vector<std::string> names_assigned_in(const std::vector<NodePtr>& stmts);
// The first target in a block that assigns `x`; with `defs`, also a nested `def x():`.
const Node* first_assignment(const std::vector<NodePtr>& stmts, const std::string& x, bool defs);

// A library function's qualified name with TensorFlow's spellings of one operation made one:
// tensorflow.math.sin and tensorflow.compat.v1.sin are "tf.sin".
std::string library_name(std::string qualified);

// Whether a library function (by library_name) is an operator of the language's table.
bool is_operator_function(const std::string& library_name);

// Small syntax builders.
Syntax syn_node(SyntaxKind k, SourceLoc l);
// A node to fill in before it is shared (wrapped in a Syntax).
SyntaxNode* syn_new(SyntaxKind k, SourceLoc l);
Syntax syn_number(const std::string& text, SourceLoc l);
Syntax syn_var(Name x, SourceLoc l);
Syntax syn_binary(BinOp op, Syntax a, Syntax b, SourceLoc l);
Syntax syn_neg(Syntax a, SourceLoc l);
Syntax syn_call(Name f, std::vector<Syntax> args, SourceLoc l);
Syntax syn_tuple(std::vector<Syntax> parts, SourceLoc l);
Syntax syn_if(Syntax guard, Syntax m, Syntax n, SourceLoc l);
Syntax syn_compare(PredKind p, Syntax a, Syntax b, SourceLoc l);
Syntax syn_bool(bool v, SourceLoc l);
Syntax syn_let(Name x, Syntax m, Syntax n, SourceLoc l);
// let (x0: T0, ..., xn: Tn) = m in n; one name: a plain let; none: n.
Syntax syn_tuple_let(const std::vector<Name>& xs, const std::vector<Shape>& shapes, Syntax m,
                     Syntax n, SourceLoc l);
// Component i of an n-tuple (left-nested).
Syntax syn_project(Syntax t, std::size_t n, std::size_t i, SourceLoc l);

}  // namespace adlang::py
