// Python statements to terms (docs/python.md, "Statements"): a block is lowered from its first
// statement with what follows it (the Tail) as the continuation. Assignments are lets; an `if`
// whose branches fall through binds the variables they assign with one tuple let (no
// duplication); an `if` with a `return` inside lowers what follows into each branch; `while`
// and `for i in range(...)` become tail-recursive functions of the variables they change (a
// loop is a special case of recursion, as the thesis says of TensorFlow's loops).
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <utility>

#include "lang/diagnostics.hpp"
#include "lang/python/lower/lowerer.hpp"

namespace adlang::py {

namespace {

void assigned_in_target(const Node& t, std::vector<std::string>& out) {
  if (t.is(Kind::Name)) {
    if (std::find(out.begin(), out.end(), t.text("id")) == out.end()) out.push_back(t.text("id"));
  } else if (t.is(Kind::Tuple) || t.is(Kind::List)) {
    for (const NodePtr& e : t.list("elts"))
      assigned_in_target(*e, out);
  }
}

// The names a block assigns (not inside nested functions), in order of first assignment.
void assigned_names(const std::vector<NodePtr>& stmts, std::vector<std::string>& out) {
  for (const NodePtr& s : stmts) {
    switch (s->kind) {
      case Kind::Assign:
        for (const NodePtr& t : s->list("targets"))
          assigned_in_target(*t, out);
        break;
      case Kind::AugAssign:
      case Kind::AnnAssign:
        assigned_in_target(*s->child("target"), out);
        break;
      case Kind::For:
        assigned_in_target(*s->child("target"), out);
        assigned_names(s->list("body"), out);
        break;
      case Kind::While:
      case Kind::If:
        assigned_names(s->list("body"), out);
        assigned_names(s->list("orelse"), out);
        break;
      case Kind::With:
        assigned_names(s->list("body"), out);
        break;
      default:
        break;
    }
  }
}

// The first target of a block that assigns `x` (not inside nested functions); with `defs`,
// also a nested `def x():`.
const Node* first_assignment_in(const std::vector<NodePtr>& stmts, const std::string& x,
                                bool defs) {
  std::function<const Node*(const Node&)> in_target = [&](const Node& t) -> const Node* {
    if (t.is(Kind::Name)) return t.text("id") == x ? &t : nullptr;
    if (t.is(Kind::Tuple) || t.is(Kind::List))
      for (const NodePtr& e : t.list("elts"))
        if (const Node* n = in_target(*e)) return n;
    return nullptr;
  };
  for (const NodePtr& s : stmts) {
    const Node* found = nullptr;
    switch (s->kind) {
      case Kind::Assign:
        for (const NodePtr& t : s->list("targets"))
          if (!found) found = in_target(*t);
        break;
      case Kind::AugAssign:
      case Kind::AnnAssign:
        found = in_target(*s->child("target"));
        break;
      case Kind::For:
        found = in_target(*s->child("target"));
        if (!found) found = first_assignment_in(s->list("body"), x, defs);
        break;
      case Kind::While:
      case Kind::If:
        found = first_assignment_in(s->list("body"), x, defs);
        if (!found) found = first_assignment_in(s->list("orelse"), x, defs);
        break;
      case Kind::With:
        found = first_assignment_in(s->list("body"), x, defs);
        break;
      case Kind::FunctionDef:
        if (defs && s->text("name") == x) found = s.get();
        break;
      default:
        break;
    }
    if (found) return found;
  }
  return nullptr;
}

// Every Name a subtree reads or writes.
void mentioned_names(const Node& n, std::set<std::string>& out) {
  if (n.is(Kind::Name)) out.insert(n.text("id"));
  for (const Field& f : n.fields) {
    if (f.tag == Field::Tag::Node && f.node) mentioned_names(*f.node, out);
    if (f.tag == Field::Tag::List)
      for (const NodePtr& k : f.list)
        if (k) mentioned_names(*k, out);
  }
}

bool contains_return(const std::vector<NodePtr>& stmts) {
  for (const NodePtr& s : stmts) {
    if (s->is(Kind::Return)) return true;
    if (s->is(Kind::FunctionDef) || s->is(Kind::ClassDef)) continue;
    for (const char* f : {"body", "orelse"}) {
      bool has = false;
      for (std::string_view n : field_names(s->kind))
        has = has || n == f;
      if (has && contains_return(s->list(f))) return true;
    }
  }
  return false;
}

const char* refused_statement(Kind k) {
  switch (k) {
    case Kind::ClassDef:
      return "classes cannot be lowered";
    case Kind::AsyncFunctionDef:
    case Kind::AsyncFor:
    case Kind::AsyncWith:
      return "async code cannot be lowered";
    case Kind::Delete:
      return "del cannot be lowered";
    case Kind::Raise:
    case Kind::Try:
    case Kind::TryStar:
      return "exceptions cannot be lowered";
    case Kind::Assert:
      return "assert cannot be lowered";
    case Kind::Global:
    case Kind::Nonlocal:
      return "global and nonlocal (mutation of outer variables) cannot be lowered";
    case Kind::Match:
      return "match statements cannot be lowered";
    case Kind::Break:
      return "break cannot be lowered";
    case Kind::Continue:
      return "continue cannot be lowered";
    case Kind::Import:
    case Kind::ImportFrom:
      return "imports inside functions cannot be lowered";
    default:
      return nullptr;
  }
}

}  // namespace

std::vector<std::string> names_assigned_in(const std::vector<NodePtr>& stmts) {
  std::vector<std::string> out;
  assigned_names(stmts, out);
  return out;
}

const Node* first_assignment(const std::vector<NodePtr>& stmts, const std::string& x, bool defs) {
  return first_assignment_in(stmts, x, defs);
}

void Lowerer::mark_unbound(const Node& statement, const std::vector<std::string>& names,
                           Scope& scope) {
  for (const std::string& x : names) {
    Binding b;
    b.kind = Binding::Kind::Unbound;
    b.assigned = first_assignment_in(statement.list("body"), x, false);
    if (!b.assigned && statement.is(Kind::If))
      b.assigned = first_assignment_in(statement.list("orelse"), x, false);
    if (!b.assigned && statement.is(Kind::For)) b.assigned = statement.child("target");
    b.statement = &statement;
    scope[x] = b;
  }
}

Value Lowerer::lower_block(const std::vector<NodePtr>& stmts, std::size_t i, Scope scope,
                           const Tail& tail) {
  if (i == stmts.size()) return tail.rest(scope);
  const Node& s = *stmts[i];
  auto next = [&](Scope& sc) { return lower_block(stmts, i + 1, sc, tail); };
  if (in_module_ && current_function_.empty()) {
    Value out;
    if (module_statement(stmts, i, scope, tail, out)) return out;
  }
  switch (s.kind) {
    case Kind::Pass:
      return next(scope);
    case Kind::Expr: {
      const Node& v = *s.child("value");
      if (v.is(Kind::Constant) && v.constant_type == ConstantType::Str) return next(scope);
      if (v.is(Kind::Call) && call_func(v).is(Kind::Name) && call_func(v).text("id") == "print")
        refuse(s, "print is lowered only as the module's last statement",
               {"the program's term is the module's last statement: an expression or print(E)"});
      refuse(s, "an expression statement whose value is unused cannot be lowered",
             {"the program's term is the module's last statement: an expression or print(E)"});
    }
    case Kind::Return: {
      if (!s.child("value")) refuse(s, "a return without a value (None) cannot be lowered");
      if (in_loop_) refuse(s, "return inside a loop cannot be lowered");
      return lower_expr(*s.child("value"), scope);
    }
    case Kind::Assign:
    case Kind::AugAssign:
    case Kind::AnnAssign:
      return lower_assign(stmts, i, scope, tail);
    case Kind::If:
      return lower_if(stmts, i, scope, tail);
    case Kind::While:
    case Kind::For:
      return lower_loop(stmts, i, scope, tail);
    case Kind::With:
      return lower_with(stmts, i, scope, tail);
    case Kind::FunctionDef: {
      const Node& args = *s.child("args");
      if (!s.list("decorator_list").empty())
        refuse(s, "decorated nested functions cannot be lowered");
      if (!args.list("args").empty() || !args.list("posonlyargs").empty() ||
          !args.list("kwonlyargs").empty() || args.child("vararg") || args.child("kwarg")) {
        refuse(s, "nested functions with parameters cannot be lowered",
               {"define the function at the top level; nested functions of no parameters "
                "(the branches of tf.cond) are inlined"});
      }
      Binding b;
      b.kind = Binding::Kind::Thunk;
      b.thunk = &s;
      scope[s.text("name")] = b;
      return next(scope);
    }
    default:
      break;
  }
  if (const char* why = refused_statement(s.kind)) refuse(s, why);
  refuse(s, "the statement '" + std::string(kind_name(s.kind)) + "' cannot be lowered");
}

Value Lowerer::bind_targets(const Node& target, const Value& v, Scope& scope,
                            const std::function<Value(Scope&)>& body, SourceLoc l) {
  if (target.is(Kind::Name)) {
    Name x = ad_name(target.text("id"));
    Binding b;
    b.name = x;
    b.shape = v.shape;
    scope[target.text("id")] = b;
    Value rest = body(scope);
    return Value{syn_let(x, v.syntax, rest.syntax, l), rest.shape};
  }
  if (target.is(Kind::Tuple) || target.is(Kind::List)) {
    const auto& elts = target.list("elts");
    if (v.shape.kind != Shape::Kind::Tuple && v.shape.kind != Shape::Kind::List)
      refuse(target, "cannot unpack " + to_string(v.shape) + " into " +
                         std::to_string(elts.size()) + " names");
    if (v.shape.parts.size() != elts.size())
      refuse(target, "cannot unpack " + std::to_string(v.shape.parts.size()) + " values into " +
                         std::to_string(elts.size()) + " names");
    std::vector<Name> xs;
    for (std::size_t k = 0; k < elts.size(); ++k) {
      if (!elts[k]->is(Kind::Name)) refuse(*elts[k], "nested unpacking cannot be lowered");
      Name x = ad_name(elts[k]->text("id"));
      for (Name y : xs)
        if (y == x) refuse(*elts[k], "a name assigned twice in one unpacking cannot be lowered");
      xs.push_back(x);
    }
    for (std::size_t k = 0; k < elts.size(); ++k) {
      Binding b;
      b.name = xs[k];
      b.shape = v.shape.parts[k];
      scope[elts[k]->text("id")] = b;
    }
    Value rest = body(scope);
    return Value{syn_tuple_let(xs, v.shape.parts, v.syntax, rest.syntax, l), rest.shape};
  }
  if (target.is(Kind::Attribute) || target.is(Kind::Subscript))
    refuse(target, "mutation of objects cannot be lowered");
  refuse(target, "this assignment target cannot be lowered");
}

Value Lowerer::lower_assign(const std::vector<NodePtr>& stmts, std::size_t i, Scope& scope,
                            const Tail& tail) {
  const Node& s = *stmts[i];
  auto next = [&](Scope& sc) { return lower_block(stmts, i + 1, sc, tail); };
  if (s.is(Kind::AugAssign)) {
    const Node& t = *s.child("target");
    if (!t.is(Kind::Name)) refuse(t, "mutation of objects cannot be lowered");
    // x op= e is x = x op e for numbers.
    Value x = lower_name(t, scope);
    Value e = lower_expr(*s.child("value"), scope);
    if (!x.shape.is_scalar() || !e.shape.is_scalar())
      refuse(s, "augmented assignment of non-numbers cannot be lowered");
    const std::string& op = s.text("op");
    SourceLoc l = loc(s);
    Syntax r;
    if (op == "Add")
      r = syn_binary(BinOp::Plus, x.syntax, e.syntax, l);
    else if (op == "Sub")
      r = syn_binary(BinOp::Minus, x.syntax, e.syntax, l);
    else if (op == "Mult")
      r = syn_binary(BinOp::Times, x.syntax, e.syntax, l);
    else if (op == "Div")
      r = syn_binary(BinOp::Divide, x.syntax, e.syntax, l);
    else
      refuse(s, "the augmented assignment '" + op + "=' cannot be lowered");
    return bind_targets(t, Value{r, Shape::real()}, scope, next, l);
  }
  if (s.is(Kind::AnnAssign)) {
    if (!s.child("value")) return next(scope);
    Value v = lower_expr(*s.child("value"), scope);
    return bind_targets(*s.child("target"), v, scope, next, loc(s));
  }
  const auto& targets = s.list("targets");
  Value v = lower_expr(*s.child("value"), scope);
  if (targets.size() == 1) return bind_targets(*targets[0], v, scope, next, loc(s));
  // a = b = e: e once, then each target.
  Name shared_name = fresh("v");
  Binding tmp;
  tmp.name = shared_name;
  tmp.shape = v.shape;
  std::function<Value(Scope&, std::size_t)> bind_from = [&](Scope& sc, std::size_t k) -> Value {
    if (k == targets.size()) return next(sc);
    return bind_targets(
        *targets[k], Value{syn_var(shared_name, loc(s)), v.shape}, sc,
        [&](Scope& sc2) { return bind_from(sc2, k + 1); }, loc(s));
  };
  Value rest = bind_from(scope, 0);
  return Value{syn_let(shared_name, v.syntax, rest.syntax, loc(s)), rest.shape};
}

Value Lowerer::lower_if(const std::vector<NodePtr>& stmts, std::size_t i, Scope& scope,
                        const Tail& tail) {
  const Node& s = *stmts[i];
  SourceLoc l = loc(s);
  const auto& body = s.list("body");
  const auto& orelse = s.list("orelse");
  if (contains_return(body) || contains_return(orelse)) {
    // What follows is lowered into each branch that falls through.
    Tail rest{[&](Scope& sc) { return lower_block(stmts, i + 1, sc, tail); }, false};
    Value a = lower_block(body, 0, scope, rest);
    Value b = lower_block(orelse, 0, scope, rest);
    return conditional(*s.child("test"), scope, a, b, l);
  }
  // Both branches fall through: bind what they assign (and is defined after the if) at once.
  // A name assigned in one branch only, and not bound before, is bound after the if on one
  // path only (Python raises NameError on the other): it is marked unbound, and a use refused.
  std::vector<std::string> in_body, in_else, joined, partial;
  assigned_names(body, in_body);
  assigned_names(orelse, in_else);
  auto bound_before = [&](const std::string& x) {
    auto it = scope.find(x);
    return it != scope.end() && it->second.kind == Binding::Kind::Value;
  };
  auto has = [](const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  for (const std::string& x : in_body)
    (has(in_else, x) || bound_before(x) ? joined : partial).push_back(x);
  for (const std::string& x : in_else)
    if (!has(in_body, x)) (bound_before(x) ? joined : partial).push_back(x);
  std::vector<Shape> shapes;
  Tail collect{[&](Scope& sc) {
                 std::vector<Syntax> parts;
                 std::vector<Shape> sh;
                 for (const std::string& x : joined) {
                   auto it = sc.find(x);
                   if (it == sc.end() || it->second.kind != Binding::Kind::Value)
                     refuse(s, "'" + x + "' is assigned in only one branch of this if");
                   parts.push_back(syn_var(it->second.name, l));
                   sh.push_back(it->second.shape);
                 }
                 return Value{syn_tuple(parts, l), Shape::tuple(sh)};
               },
               false};
  // The globals the top level binds (imports among them) likewise: bound after the if only if
  // both branches bind them.
  std::set<std::string> before = executed_;
  Value a = lower_block(body, 0, scope, collect);
  std::set<std::string> after_body = std::exchange(executed_, before);
  Value b = lower_block(orelse, 0, scope, collect);
  std::set<std::string> both;
  for (const std::string& x : after_body) {
    if (executed_.count(x))
      both.insert(x);
    else
      partial_globals_.emplace(x, &s);
  }
  for (const std::string& x : executed_)
    if (!after_body.count(x)) partial_globals_.emplace(x, &s);
  executed_ = std::move(both);
  Value branches = conditional(*s.child("test"), scope, a, b, l);
  mark_unbound(s, partial, scope);
  if (joined.empty()) return lower_block(stmts, i + 1, scope, tail);
  std::vector<Name> xs;
  std::vector<Shape> xshapes = joined.size() == 1 ? std::vector<Shape>{a.shape} : a.shape.parts;
  for (std::size_t k = 0; k < joined.size(); ++k) {
    Binding bd;
    bd.name = ad_name(joined[k]);
    bd.shape = xshapes[k];
    scope[joined[k]] = bd;
    xs.push_back(bd.name);
  }
  Value rest = lower_block(stmts, i + 1, scope, tail);
  return Value{syn_tuple_let(xs, xshapes, branches.syntax, rest.syntax, l), rest.shape};
}

// while C: B  ==>  def loop(s..., c...) = if C then loop(B's s..., c...) else (s...);
//                  let (s...) = loop(s..., c...) in <what follows>
// where s are the variables defined before the loop that B assigns and c the others B reads.
// for i in range(a, b, k) is the while loop over a hidden counter n from a: while n < b (n > b
// for k < 0): i = n; n = n + k; B.
Value Lowerer::lower_loop(const std::vector<NodePtr>& stmts, std::size_t i, Scope& scope,
                          const Tail& tail) {
  const Node& s = *stmts[i];
  SourceLoc l = loc(s);
  if (!s.list("orelse").empty()) refuse(s, "a loop with an else clause cannot be lowered");
  if (contains_return(s.list("body")))
    refuse(s, "return inside a loop cannot be lowered",
           {"assign the result to a variable and return it after the loop"});
  bool is_for = s.is(Kind::For);
  std::vector<std::pair<Name, Syntax>> pre;  // lets before the loop (range bounds)
  Name counter, stop;
  std::string step_text = "1";
  std::string target;
  if (is_for) {
    const Node& iter = *s.child("iter");
    std::optional<std::string> q =
        iter.is(Kind::Call) ? qualified_name(call_func(iter)) : std::nullopt;
    if (q != "range") refuse(iter, "only `for NAME in range(...)` loops can be lowered");
    if (!s.child("target")->is(Kind::Name))
      refuse(*s.child("target"), "the target of a for loop must be a name");
    target = s.child("target")->text("id");
    const auto& args = call_args(iter);
    if (!call_keywords(iter).empty() || args.empty() || args.size() > 3)
      refuse(iter, "range takes 1 to 3 positional arguments");
    if (args.size() == 3) {
      const Node& k = *args[2];
      bool neg = k.is(Kind::UnaryOp) && k.text("op") == "USub";
      const Node& lit = neg ? *k.child("operand") : k;
      if (!lit.is(Kind::Constant) || lit.constant_type != ConstantType::Int ||
          lit.text("value") == "0")
        refuse(k, "the step of range must be a nonzero whole-number literal");
      step_text = (neg ? "-" : "") + lit.text("value");
    }
    Value start =
        args.size() == 1 ? Value{syn_number("0", l), Shape::real()} : lower_expr(*args[0], scope);
    Value end = lower_expr(*args[args.size() == 1 ? 0 : 1], scope);
    if (!start.shape.is_scalar() || !end.shape.is_scalar())
      refuse(iter, "range of non-numbers cannot be lowered");
    counter = fresh(target + "_next");
    stop = fresh(target + "_stop");
    pre.emplace_back(counter, start.syntax);
    pre.emplace_back(stop, end.syntax);
  }
  // The loop's state: variables defined before it that it assigns.
  std::vector<std::string> assigned;
  assigned_names(s.list("body"), assigned);
  if (is_for && std::find(assigned.begin(), assigned.end(), target) == assigned.end())
    assigned.push_back(target);
  // The others are bound after the loop only if it ran (Python raises NameError otherwise);
  // the lowering passes on the state only, so they are marked unbound after the loop.
  std::vector<std::string> state, loop_only;
  for (const std::string& x : assigned) {
    auto it = scope.find(x);
    bool before = it != scope.end() && it->second.kind == Binding::Kind::Value;
    (before ? state : loop_only).push_back(x);
  }
  std::set<std::string> mentioned;
  for (const NodePtr& b : s.list("body"))
    mentioned_names(*b, mentioned);
  if (!is_for) mentioned_names(*s.child("test"), mentioned);
  std::vector<std::string> captured;
  Scope unbound_read;  // unbound names the body mentions: a read before assigning is refused
  for (const std::string& x : mentioned) {
    if (std::find(state.begin(), state.end(), x) != state.end()) continue;
    if (is_for && x == target) continue;
    auto it = scope.find(x);
    if (it == scope.end()) continue;
    if (it->second.kind == Binding::Kind::Unbound) {
      unbound_read[x] = it->second;
      continue;
    }
    if (it->second.kind != Binding::Kind::Value)
      refuse(s, "'" + x + "' is used inside a loop, where only numbers can be");
    captured.push_back(x);
  }
  if (state.empty()) {
    // for: the loop has no effect after it (range always ends); while: it never runs or
    // never ends.
    if (is_for) {
      mark_unbound(s, loop_only, scope);
      return lower_block(stmts, i + 1, scope, tail);
    }
    refuse(s, "this loop changes no variable defined before it",
           {"it either never runs or never ends"});
  }

  // Parameters of the loop function: the state, then (for) the counter and the bound, then
  // the captured variables. It returns the state.
  std::vector<Name> pnames;
  std::vector<Shape> pshapes;
  std::vector<std::string> pyname;  // empty for counter/stop
  for (const std::string& x : state) {
    pnames.push_back(scope[x].name);
    pshapes.push_back(scope[x].shape);
    pyname.push_back(x);
  }
  std::size_t n_state = pnames.size();
  if (is_for) {
    pnames.insert(pnames.end(), {counter, stop});
    pshapes.insert(pshapes.end(), {Shape::real(), Shape::real()});
    pyname.insert(pyname.end(), {"", ""});
  }
  for (const std::string& x : captured) {
    pnames.push_back(scope[x].name);
    pshapes.push_back(scope[x].shape);
    pyname.push_back(x);
  }
  std::vector<Shape> result_shapes(pshapes.begin(), pshapes.begin() + static_cast<long>(n_state));
  Name fn = fresh(is_for ? "for_" + target : "while_loop");
  FunctionInfo info;
  info.name = fn;
  info.param_shapes = pshapes;
  info.result = Shape::tuple(result_shapes);
  info.result_fixed = true;
  info.loc = l;

  // The loop function's body, in a scope of its parameters only.
  Scope inner = unbound_read;
  for (std::size_t k = 0; k < pnames.size(); ++k) {
    if (pyname[k].empty()) continue;
    Binding b;
    b.name = pnames[k];
    b.shape = pshapes[k];
    inner[pyname[k]] = b;
  }
  // Globals bound once to numbers are constants; other scope entries are not visible.
  auto recur = [&, fn, l](Scope& sc, Syntax counter_now) {
    std::vector<Syntax> args;
    for (std::size_t k = 0; k < pnames.size(); ++k) {
      if (pyname[k].empty()) {
        args.push_back(pnames[k] == counter ? counter_now : syn_var(stop, l));
        continue;
      }
      auto it = sc.find(pyname[k]);
      if (it == sc.end() || it->second.kind != Binding::Kind::Value)
        refuse(s, "'" + pyname[k] + "' is not a number at the end of the loop body");
      args.push_back(syn_var(it->second.name, l));
    }
    return Value{syn_call(fn, args, l), info.result};
  };
  bool saved_loop = in_loop_;
  in_loop_ = true;
  std::string saved_function = current_function_;
  if (current_function_.empty()) current_function_ = fn.str();
  bool saved_module = in_module_;
  in_module_ = false;
  // The registered signature must exist while the body is lowered (for nested calls).
  functions_[fn.str()] = info;
  Syntax body_syntax;
  Syntax guard;
  bool negated = false;
  if (is_for) {
    Name next_counter = fresh(target + "_after");
    Binding ib;
    ib.name = ad_name(target);
    ib.shape = Shape::real();
    Scope body_scope = inner;
    body_scope[target] = ib;
    Tail t{[&](Scope& sc) { return recur(sc, syn_var(next_counter, l)); }, false};
    Value b = lower_block(s.list("body"), 0, body_scope, t);
    bool down = step_text[0] == '-';
    Syntax step = syn_number(down ? step_text.substr(1) : step_text, l);
    Syntax advanced = syn_binary(down ? BinOp::Minus : BinOp::Plus, syn_var(counter, l), step, l);
    body_syntax =
        syn_let(ib.name, syn_var(counter, l), syn_let(next_counter, advanced, b.syntax, l), l);
    guard = syn_compare(step_text[0] == '-' ? PredKind::Gt : PredKind::Lt, syn_var(counter, l),
                        syn_var(stop, l), l);
  } else {
    Tail t{[&](Scope& sc) { return recur(sc, Syntax()); }, false};
    Value b = lower_block(s.list("body"), 0, inner, t);
    body_syntax = b.syntax;
    Scope guard_scope = inner;
    guard = lower_guard(*s.child("test"), guard_scope, negated);
  }
  functions_.erase(fn.str());
  in_loop_ = saved_loop;
  current_function_ = saved_function;
  in_module_ = saved_module;
  std::vector<Syntax> done;
  for (std::size_t k = 0; k < n_state; ++k)
    done.push_back(syn_var(pnames[k], l));
  Syntax exit = syn_tuple(done, l);
  Syntax loop_body =
      negated ? syn_if(guard, exit, body_syntax, l) : syn_if(guard, body_syntax, exit, l);
  Name param = pnames.size() == 1 ? pnames[0] : fresh("state");
  if (pnames.size() > 1)
    loop_body = syn_tuple_let(pnames, pshapes, syn_var(param, l), loop_body, l);
  SyntaxDef def{fn, Binder{param, Shape::tuple(pshapes).type(), l}, info.result.type(), loop_body,
                l};
  loop_defs_.push_back(def);

  // The call (after the range's lets), and what follows with the state rebound.
  std::vector<Syntax> args;
  for (std::size_t k = 0; k < pnames.size(); ++k) {
    if (pyname[k].empty())
      args.push_back(syn_var(pnames[k], l));
    else
      args.push_back(syn_var(scope[pyname[k]].name, l));
  }
  Syntax call = syn_call(fn, args, l);
  std::vector<Name> bound(pnames.begin(), pnames.begin() + static_cast<long>(n_state));
  for (std::size_t k = 0; k < n_state; ++k) {
    if (pyname[k].empty()) continue;
    Binding b;
    b.name = pnames[k];
    b.shape = pshapes[k];
    scope[pyname[k]] = b;
  }
  mark_unbound(s, loop_only, scope);
  if (!top_.empty() || in_module_) top_opaque_ = true;
  Value rest = lower_block(stmts, i + 1, scope, tail);
  Syntax r = syn_tuple_let(bound, result_shapes, call, rest.syntax, l);
  return Value{wrap_lets(pre, r), rest.shape};
}

Value Lowerer::lower_with(const std::vector<NodePtr>& stmts, std::size_t i, Scope& scope,
                          const Tail& tail) {
  const Node& s = *stmts[i];
  const auto& items = s.list("items");
  if (items.size() != 1) refuse(s, "a with statement of several items cannot be lowered");
  const Node& item = *items[0];
  const Node& ctx = *item.child("context_expr");
  std::optional<std::string> q = ctx.is(Kind::Call) ? qualified_name(call_func(ctx)) : std::nullopt;
  Tail after{[&](Scope& sc) { return lower_block(stmts, i + 1, sc, tail); },
             tail.module_end && i + 1 == stmts.size()};
  if (q && (*q == "tensorflow.device" || *q == "tensorflow.compat.v1.device")) {
    const auto& args = call_args(ctx);
    if (args.size() != 1 || !args[0]->is(Kind::Constant) ||
        args[0]->constant_type != ConstantType::Str)
      refuse(ctx, "tf.device takes one device name (a string literal)");
    const auto& body = s.list("body");
    const std::string& device = args[0]->str_value;
    unsigned rank = 0;
    if (std::size_t at = device.find("/task:"); at != std::string::npos)
      rank = static_cast<unsigned>(std::strtoul(device.c_str() + at + 6, nullptr, 10));
    Placement p{current_function_, loc(*body.front()),
                SourceLoc{body.back()->span.end_line, body.back()->span.end_col}, device, rank};
    out_.placements.push_back(p);
    return lower_block(s.list("body"), 0, scope, after);
  }
  if (q && (*q == "tensorflow.Session" || *q == "tensorflow.compat.v1.Session" ||
            *q == "tensorflow.InteractiveSession")) {
    if (!current_function_.empty() || !in_module_)
      refuse(s, "a session inside a function cannot be lowered");
    if (const Node* v = item.child("optional_vars")) {
      if (!v->is(Kind::Name)) refuse(*v, "the session must be bound to a name");
      Binding b;
      b.kind = Binding::Kind::Session;
      scope[v->text("id")] = b;
    }
    top_opaque_ = true;
    return lower_block(s.list("body"), 0, scope, after);
  }
  refuse(ctx, "this with statement cannot be lowered",
         {"lowered: `with tf.Session() as sess:` and `with tf.device(...):`"});
}

Value Lowerer::lower_thunk(const Node& thunk, Scope scope) {
  if (thunk.is(Kind::Lambda)) return lower_expr(*thunk.child("body"), scope);
  Tail fall{[&](Scope&) -> Value {
              refuse(thunk,
                     "the function '" + thunk.text("name") + "' can end without returning a value");
            },
            false};
  bool saved = in_loop_;
  in_loop_ = false;
  Value v = lower_block(thunk.list("body"), 0, scope, fall);
  in_loop_ = saved;
  return v;
}

}  // namespace adlang::py
