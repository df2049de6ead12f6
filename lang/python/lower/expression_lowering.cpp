// Python expressions to terms (docs/python.md, "Expressions"). Python's int and float are
// reals; booleans are the reals 1 and 0; `x % y` and `x // y` follow Python's (and
// TensorFlow's floormod/floordiv) convention through floor; everything else is refused.
#include <cmath>

#include "lang/diagnostics.hpp"
#include "lang/op.hpp"
#include "lang/python/lower/lowerer.hpp"

namespace adlang::py {

namespace {

bool is_simple(const Syntax& s) {
  return s->kind == SyntaxKind::Var || s->kind == SyntaxKind::Number;
}

// The guard `v = 1` for a boolean held as a real.
Syntax is_true(const Syntax& v, SourceLoc l) {
  return syn_compare(PredKind::Eq, v, syn_number("1", l), l);
}

const char* construct_name(Kind k) {
  switch (k) {
    case Kind::List:
    case Kind::ListComp:
      return "lists";
    case Kind::Dict:
    case Kind::DictComp:
      return "dicts";
    case Kind::Set:
    case Kind::SetComp:
      return "sets";
    case Kind::GeneratorExp:
      return "generator expressions";
    case Kind::Lambda:
      return "a lambda outside tf.cond";
    case Kind::NamedExpr:
      return "assignment expressions (:=)";
    case Kind::Await:
      return "await";
    case Kind::Yield:
    case Kind::YieldFrom:
      return "yield";
    case Kind::JoinedStr:
    case Kind::FormattedValue:
      return "f-strings";
    case Kind::Starred:
      return "starred expressions";
    case Kind::Slice:
      return "slices";
    default:
      return nullptr;
  }
}

}  // namespace

Syntax Lowerer::shared(Syntax s, std::vector<std::pair<Name, Syntax>>& lets) {
  if (is_simple(s)) return s;
  Name x = fresh("t");
  lets.emplace_back(x, s);
  return syn_var(x, s->loc);
}

Syntax Lowerer::wrap_lets(const std::vector<std::pair<Name, Syntax>>& lets, Syntax body) {
  for (std::size_t i = lets.size(); i-- > 0;)
    body = syn_let(lets[i].first, lets[i].second, body, body->loc);
  return body;
}

Value Lowerer::lower_expr(const Node& e, Scope& scope) {
  switch (e.kind) {
    case Kind::Name:
      return lower_name(e, scope);
    case Kind::Constant:
      return lower_constant(e);
    case Kind::BinOp:
      return lower_binop(e, scope);
    case Kind::UnaryOp:
      return lower_unary(e, scope);
    case Kind::Compare:
      return lower_compare_value(e, scope);
    case Kind::BoolOp:
      return lower_boolop(e, scope);
    case Kind::IfExp: {
      Value a = lower_expr(*e.child("body"), scope);
      Value b = lower_expr(*e.child("orelse"), scope);
      return conditional(*e.child("test"), scope, a, b, loc(e));
    }
    case Kind::Tuple: {
      const auto& elts = e.list("elts");
      if (elts.size() == 1)
        refuse(e, "a one-element tuple cannot be lowered",
               {"the language has no one-element tuples: a tuple type has two or more "
                "components, and real^1 is real"});
      std::vector<Syntax> parts;
      std::vector<Shape> shapes;
      for (const NodePtr& x : elts) {
        Value v = lower_expr(*x, scope);
        parts.push_back(v.syntax);
        shapes.push_back(v.shape);
      }
      return Value{syn_tuple(parts, loc(e)), Shape::tuple(shapes)};
    }
    case Kind::Subscript:
      return lower_subscript(e, scope);
    case Kind::Attribute:
      check_imported(e, scope);
      return lower_attribute(e);
    case Kind::Call:
      return lower_call(e, scope);
    default:
      break;
  }
  if (const char* what = construct_name(e.kind)) {
    refuse(e, std::string(what) + " cannot be lowered",
           {"the lowering expresses scalar numeric programs: reals, booleans and tuples"});
  }
  refuse(e, "the expression '" + std::string(kind_name(e.kind)) + "' cannot be lowered");
}

Value Lowerer::lower_name(const Node& e, Scope& scope) {
  const std::string& id = e.text("id");
  auto it = scope.find(id);
  if (it != scope.end()) {
    const Binding& b = it->second;
    switch (b.kind) {
      case Binding::Kind::Value:
        return Value{syn_var(b.name, loc(e)), b.shape};
      case Binding::Kind::Thunk:
        refuse(e, "the function '" + id + "' is used as a value",
               {"nested functions can only be called or be the branches of tf.cond"});
      case Binding::Kind::Session:
        refuse(e, "the session '" + id + "' is used as a value");
      case Binding::Kind::Opaque:
        refuse(e, "'" + id + "' is a configuration object, not a number");
      case Binding::Kind::Unbound: {
        const Node& st = *b.statement;
        bool branch = st.is(Kind::If);
        auto at = [&](const Node& n) {
          return std::to_string(loc(n).line) + ":" + std::to_string(loc(n).col);
        };
        std::string assigned = b.assigned ? " at " + at(*b.assigned) + "," : "";
        refuse(e,
               "'" + id + "' may be unbound here: it is assigned" + assigned +
                   (branch ? " in only one branch of the if at " : " only inside the loop at ") +
                   at(st),
               {branch ? "Python raises NameError (UnboundLocalError in a def) when the other "
                         "branch ran; assign it before the if or in both branches"
                       : "Python binds it only if the loop body ran (NameError otherwise), and "
                         "the lowered loop passes on only the variables defined before it: "
                         "assign it before the loop"});
      }
    }
  }
  if (!def_.empty() && def_locals_.count(id)) {
    // Python: a name assigned anywhere in a def is local to all of it (UnboundLocalError).
    refuse(e, "local variable '" + id + "' is read before it is assigned",
           {"Python raises UnboundLocalError: a name assigned anywhere in a def is a local "
            "variable of the whole def, never the global"});
  }
  auto c = constants_.find(id);
  if (c != constants_.end()) {
    use_global(e, id);
    return Value{c->second.syntax, c->second.shape};
  }
  if (def_.empty()) {
    // At the top level (and in its loops): a name the module assigns later is not yet defined.
    auto later = module_assigned_.find(id);
    if (later != module_assigned_.end()) {
      SourceLoc at = loc(*later->second);
      refuse(e,
             "name '" + id + "' is used before it is assigned (at " + std::to_string(at.line) +
                 ":" + std::to_string(at.col) + ")",
             {"Python raises NameError: a name is defined when its assignment runs"});
    }
  }
  if (function_named(id)) {
    refuse(e, "the function '" + id + "' is used as a value",
           {"functions are not values in the language (it is first-order)"});
  }
  if (in_module_ && current_function_.empty()) {
    // A name nothing binds in the program's term is an input (--env).
    return Value{syn_var(ad_name(id), loc(e)), Shape::real()};
  }
  if (!current_function_.empty() && !in_module_) {
    refuse(e, "'" + id + "' is not a parameter or local variable of '" + current_function_ + "'",
           {"a function can read globals bound once to a number; pass anything else as a "
            "parameter"});
  }
  refuse(e, "name '" + id + "' is not defined here");
}

Value Lowerer::lower_constant(const Node& e) {
  switch (e.constant_type) {
    case ConstantType::Int:
    case ConstantType::Float: {
      const std::string& repr = e.text("value");
      if (repr == "inf" || repr == "nan") refuse(e, "the constant " + repr + " cannot be lowered");
      return Value{syn_number(repr, loc(e)), Shape::real()};
    }
    case ConstantType::Bool:
      return Value{syn_number(e.text("value") == "True" ? "1" : "0", loc(e)), Shape::boolean()};
    case ConstantType::None:
      refuse(e, "None cannot be lowered");
    case ConstantType::Str:
    case ConstantType::Bytes:
      refuse(e, "strings cannot be lowered", {"the only output is the program's final print"});
    case ConstantType::Complex:
      refuse(e, "complex numbers cannot be lowered");
    default:
      refuse(e, "this constant cannot be lowered");
  }
}

Value Lowerer::lower_binop(const Node& e, Scope& scope) {
  const std::string& op = e.text("op");
  Value a = lower_expr(*e.child("left"), scope);
  Value b = lower_expr(*e.child("right"), scope);
  SourceLoc l = loc(e);
  if (!a.shape.is_scalar() || !b.shape.is_scalar()) {
    refuse(e,
           "'" + op + "' of " + to_string(a.shape) + " and " + to_string(b.shape) +
               " cannot be lowered",
           {"arithmetic is on numbers; tuple concatenation and repetition are not lowered"});
  }
  auto number = [&](Syntax s) { return Value{s, Shape::real()}; };
  if (op == "Add") return number(syn_binary(BinOp::Plus, a.syntax, b.syntax, l));
  if (op == "Sub") return number(syn_binary(BinOp::Minus, a.syntax, b.syntax, l));
  if (op == "Mult") return number(syn_binary(BinOp::Times, a.syntax, b.syntax, l));
  if (op == "Div") return number(syn_binary(BinOp::Divide, a.syntax, b.syntax, l));
  if (op == "Mod" || op == "FloorDiv") {
    if (!Op::lookup("floor")) refuse(e, "'%' and '//' need the operator floor");
    std::vector<std::pair<Name, Syntax>> lets;
    Syntax x = shared(a.syntax, lets);
    Syntax y = shared(b.syntax, lets);
    // floor(x / y); x % y = x - floor(x / y) * y (the sign of y, as Python and tf.math.floormod)
    Syntax q = syn_call(Name("floor"), {syn_binary(BinOp::Divide, x, y, l)}, l);
    if (op == "FloorDiv") return number(wrap_lets(lets, q));
    return number(
        wrap_lets(lets, syn_binary(BinOp::Minus, x, syn_binary(BinOp::Times, q, y, l), l)));
  }
  if (op == "Pow") {
    const Node& r = *e.child("right");
    bool negative = false;
    const Node* k = &r;
    if (r.is(Kind::UnaryOp) && r.text("op") == "USub") {
      negative = true;
      k = r.child("operand");
    }
    if (!k->is(Kind::Constant) || k->constant_type != ConstantType::Int ||
        k->text("value").size() > 2) {
      refuse(r, "only whole-number literal exponents up to 99 can be lowered",
             {"x ** y for other y is exp(y * log(x)) only where x > 0; write that if it is meant"});
    }
    int n = std::stoi(k->text("value"));
    std::vector<std::pair<Name, Syntax>> lets;
    Syntax x = shared(a.syntax, lets);
    Syntax p = syn_number("1", l);
    for (int i = 0; i < n; ++i)
      p = i == 0 ? x : syn_binary(BinOp::Times, p, x, l);
    if (negative) p = syn_binary(BinOp::Divide, syn_number("1", l), p, l);
    return number(wrap_lets(lets, p));
  }
  refuse(e, "the operator '" + op + "' cannot be lowered",
         {"lowered: + - * / // % and ** with a whole-number literal exponent"});
}

Value Lowerer::lower_unary(const Node& e, Scope& scope) {
  const std::string& op = e.text("op");
  if (op == "Not") {
    bool negated = false;
    Syntax g = lower_guard(*e.child("operand"), scope, negated);
    SourceLoc l = loc(e);
    Syntax one = syn_number("1", l), zero = syn_number("0", l);
    return Value{negated ? syn_if(g, one, zero, l) : syn_if(g, zero, one, l), Shape::boolean()};
  }
  Value a = lower_expr(*e.child("operand"), scope);
  if (!a.shape.is_scalar())
    refuse(e, "'" + op + "' of " + to_string(a.shape) + " cannot be lowered");
  if (op == "USub") return Value{syn_neg(a.syntax, loc(e)), Shape::real()};
  if (op == "UAdd") return Value{a.syntax, Shape::real()};
  refuse(e, "the operator '" + op + "' cannot be lowered");
}

Value Lowerer::lower_compare_value(const Node& e, Scope& scope) {
  bool negated = false;
  Syntax g = lower_guard(e, scope, negated);
  SourceLoc l = loc(e);
  Syntax one = syn_number("1", l), zero = syn_number("0", l);
  return Value{negated ? syn_if(g, zero, one, l) : syn_if(g, one, zero, l), Shape::boolean()};
}

// Python's `a and b` is b if a is true, else a; `a or b` is a if a is true, else b.
Value Lowerer::lower_boolop(const Node& e, Scope& scope) {
  bool is_and = e.text("op") == "And";
  const auto& values = e.list("values");
  Value acc = lower_expr(*values.back(), scope);
  for (std::size_t i = values.size() - 1; i-- > 0;) {
    Value a = lower_expr(*values[i], scope);
    if (!a.shape.is_scalar() || !acc.shape.is_scalar())
      refuse(e, "'and'/'or' of non-numbers cannot be lowered");
    SourceLoc l = loc(*values[i]);
    std::vector<std::pair<Name, Syntax>> lets;
    Syntax x = shared(a.syntax, lets);
    Syntax truth = a.shape.kind == Shape::Kind::Bool
                       ? is_true(x, l)
                       : syn_compare(PredKind::Eq, x, syn_number("0", l), l);
    bool truth_negated = a.shape.kind != Shape::Kind::Bool;
    Syntax when_true = is_and ? acc.syntax : x;
    Syntax when_false = is_and ? x : acc.syntax;
    Syntax r = truth_negated ? syn_if(truth, when_false, when_true, l)
                             : syn_if(truth, when_true, when_false, l);
    Shape s = a.shape.kind == Shape::Kind::Bool && acc.shape.kind == Shape::Kind::Bool
                  ? Shape::boolean()
                  : Shape::real();
    acc = Value{wrap_lets(lets, r), s};
  }
  return acc;
}

Syntax Lowerer::lower_guard(const Node& test, Scope& scope, bool& negated) {
  negated = false;
  SourceLoc l = loc(test);
  if (test.is(Kind::UnaryOp) && test.text("op") == "Not") {
    Syntax g = lower_guard(*test.child("operand"), scope, negated);
    negated = !negated;
    return g;
  }
  if (test.is(Kind::Compare) && test.field("ops").names.size() == 1) {
    const std::string& op = test.field("ops").names[0];
    Value a = lower_expr(*test.child("left"), scope);
    Value b = lower_expr(*test.list("comparators")[0], scope);
    if (!a.shape.is_scalar() || !b.shape.is_scalar())
      refuse(test, "comparisons of " + to_string(a.shape) + " and " + to_string(b.shape) +
                       " cannot be lowered");
    if (op == "Lt") return syn_compare(PredKind::Lt, a.syntax, b.syntax, l);
    if (op == "LtE") return syn_compare(PredKind::Le, a.syntax, b.syntax, l);
    if (op == "Gt") return syn_compare(PredKind::Gt, a.syntax, b.syntax, l);
    if (op == "GtE") return syn_compare(PredKind::Ge, a.syntax, b.syntax, l);
    if (op == "Eq") return syn_compare(PredKind::Eq, a.syntax, b.syntax, l);
    if (op == "NotEq") {
      negated = true;
      return syn_compare(PredKind::Eq, a.syntax, b.syntax, l);
    }
    refuse(test, "the comparison '" + op + "' cannot be lowered", {"lowered: < <= > >= == !="});
  }
  if (test.is(Kind::Compare)) {
    refuse(test, "chained comparisons cannot be lowered; write them with 'and'");
  }
  if (test.is(Kind::Constant) && test.constant_type == ConstantType::Bool)
    return syn_bool(test.text("value") == "True", l);
  Value v = lower_expr(test, scope);
  if (v.shape.kind == Shape::Kind::Bool) {
    // A boolean made by a comparison, `if G then 1 else 0`, is tested by G itself.
    const Syntax& s = v.syntax;
    if (s->kind == SyntaxKind::If && s->kids[1]->kind == SyntaxKind::Number &&
        s->kids[2]->kind == SyntaxKind::Number) {
      const std::string& a = s->kids[1]->text;
      const std::string& b = s->kids[2]->text;
      if (a == "1" && b == "0") return s->kids[0];
      if (a == "0" && b == "1") {
        negated = true;
        return s->kids[0];
      }
    }
    return is_true(v.syntax, l);
  }
  if (v.shape.kind == Shape::Kind::Real) {
    negated = true;
    return syn_compare(PredKind::Eq, v.syntax, syn_number("0", l), l);
  }
  refuse(test, "the truth of " + to_string(v.shape) + " cannot be lowered");
}

Value Lowerer::conditional(const Node& test, Scope& scope, Value then_v, Value else_v,
                           SourceLoc l) {
  bool negated = false;
  Syntax g = lower_guard(test, scope, negated);
  Shape s = then_v.shape;
  if (negated) std::swap(then_v, else_v);
  return Value{syn_if(g, then_v.syntax, else_v.syntax, l), s};
}

Value Lowerer::lower_subscript(const Node& e, Scope& scope) {
  Value v = lower_expr(*e.child("value"), scope);
  const Node& index = *e.child("slice");
  if (v.shape.kind != Shape::Kind::Tuple && v.shape.kind != Shape::Kind::List)
    refuse(e, "subscripts of " + to_string(v.shape) + " cannot be lowered",
           {"lists, dicts and tensors of rank > 0 are not lowered"});
  bool negative = index.is(Kind::UnaryOp) && index.text("op") == "USub";
  const Node& k = negative ? *index.child("operand") : index;
  if (!k.is(Kind::Constant) || k.constant_type != ConstantType::Int)
    refuse(index, "a tuple index must be a whole-number literal");
  long long n = static_cast<long long>(v.shape.parts.size());
  long long i = std::stoll(k.text("value"));
  if (negative) i = n - i;
  if (i < 0 || i >= n) refuse(index, "tuple index out of range");
  return Value{syn_project(v.syntax, n, static_cast<std::size_t>(i), loc(e)),
               v.shape.parts[static_cast<std::size_t>(i)]};
}

void Lowerer::check_imported(const Node& e, const Scope& scope) {
  const Node* head = &e;
  while (head->is(Kind::Attribute))
    head = head->child("value");
  if (head == &e || !head->is(Kind::Name)) return;
  const std::string& id = head->text("id");
  if (scope.count(id) || function_named(id)) return;
  if (imports_.count(id) || partial_globals_.count(id)) return use_global(*head, id);
  refuse(*head, "name '" + id + "' is not defined",
         {"Python raises NameError: a module must be imported (`import " + id + "`)"});
}

void Lowerer::use_global(const Node& at, const std::string& py) {
  if (!def_.empty()) {
    def_globals_[def_].emplace(py, GlobalUse{&at, current_def_python_});
    return;
  }
  if (executed_.count(py)) return;
  if (auto p = partial_globals_.find(py); p != partial_globals_.end()) {
    SourceLoc at_if = loc(*p->second);
    refuse(at,
           "'" + py + "' may be unbound here: it is bound in only one branch of the if at " +
               std::to_string(at_if.line) + ":" + std::to_string(at_if.col),
           {"Python raises NameError when the other branch ran; bind it before the if or in "
            "both branches"});
  }
  auto bound = module_assigned_.find(py);
  std::string where;
  if (bound != module_assigned_.end())
    where = " (at " + std::to_string(loc(*bound->second).line) + ":" +
            std::to_string(loc(*bound->second).col) + ")";
  refuse(at, "name '" + py + "' is used before it is bound" + where,
         {"Python raises NameError: a global is defined when its statement runs"});
}

void Lowerer::use_function(const Node& at, const std::string& py, const FunctionInfo& f) {
  use_global(at, py);
  if (!def_.empty()) {
    def_calls_[def_].insert(f.name.str());
    return;
  }
  // At the top level the call runs now: every global the function reads (through the
  // functions it calls) must be bound already, as Python looks them up at call time.
  std::set<std::string> seen{f.name.str()};
  std::vector<std::string> todo{f.name.str()};
  while (!todo.empty()) {
    std::string g = todo.back();
    todo.pop_back();
    for (const auto& [name, use] : def_globals_[g]) {
      if (executed_.count(name)) continue;
      SourceLoc u = loc(*use.at);
      std::vector<std::string> notes{"'" + use.function + "' reads '" + name + "' at " +
                                     std::to_string(u.line) + ":" + std::to_string(u.col) +
                                     "; Python looks globals up when the function runs, and "
                                     "raises NameError"};
      auto bound = module_assigned_.find(name);
      if (auto p = partial_globals_.find(name); p != partial_globals_.end())
        notes.push_back("'" + name + "' is bound in only one branch of the if at " +
                        std::to_string(loc(*p->second).line) + ":" +
                        std::to_string(loc(*p->second).col));
      else if (bound != module_assigned_.end())
        notes.push_back("'" + name + "' is bound at " + std::to_string(loc(*bound->second).line) +
                        ":" + std::to_string(loc(*bound->second).col) + ", after this call");
      refuse(at, "'" + py + "' is called before the global '" + name + "' it reads is bound",
             notes);
    }
    for (const std::string& h : def_calls_[g])
      if (seen.insert(h).second) todo.push_back(h);
  }
}

Value Lowerer::lower_attribute(const Node& e) {
  std::optional<std::string> q = qualified_name(e);
  if (q == "math.pi" || q == "numpy.pi")
    return Value{syn_number("3.141592653589793", loc(e)), Shape::real()};
  if (q == "math.e" || q == "numpy.e")
    return Value{syn_number("2.718281828459045", loc(e)), Shape::real()};
  refuse(e, "the attribute '" + e.text("attr") + "' cannot be lowered",
         {"objects and their attributes are not lowered"});
}

std::vector<Value> Lowerer::positional_args(const Node& call, Scope& scope, std::size_t min,
                                            std::size_t max,
                                            const std::set<std::string>& ignored_kw) {
  for (const NodePtr& k : call_keywords(call)) {
    if (k->field("arg").tag != Field::Tag::Text || !ignored_kw.count(k->text("arg")))
      refuse(*k, "this keyword argument cannot be lowered");
  }
  const auto& args = call_args(call);
  if (args.size() < min || args.size() > max) {
    refuse(call, "expected " +
                     (min == max ? std::to_string(min)
                                 : std::to_string(min) + " to " + std::to_string(max)) +
                     " arguments, got " + std::to_string(args.size()));
  }
  std::vector<Value> out;
  for (const NodePtr& a : args) {
    if (a->is(Kind::Starred)) refuse(*a, "starred arguments cannot be lowered");
    out.push_back(lower_expr(*a, scope));
  }
  return out;
}

Value Lowerer::lower_call(const Node& e, Scope& scope) {
  const Node& f = call_func(e);
  if (f.is(Kind::Name)) {
    const std::string& id = f.text("id");
    auto it = scope.find(id);
    if (it != scope.end() && it->second.kind == Binding::Kind::Thunk) {
      if (!call_args(e).empty() || !call_keywords(e).empty())
        refuse(e, "'" + id + "' takes no arguments");
      return lower_thunk(*it->second.thunk, scope);
    }
    if (it != scope.end() && it->second.kind == Binding::Kind::Unbound) lower_name(f, scope);
    if (it == scope.end()) {
      if (!def_.empty() && def_locals_.count(id)) lower_name(f, scope);
      if (const FunctionInfo* fn = function_named(id)) {
        use_function(f, id, *fn);
        return lower_user_call(e, *fn, scope);
      }
      if (imports_.count(id)) use_global(f, id);  // from math import sqrt
    }
  }
  check_imported(f, scope);
  if (f.is(Kind::Attribute) && f.child("value")->is(Kind::Name)) {
    auto it = scope.find(f.child("value")->text("id"));
    if (it != scope.end() && it->second.kind == Binding::Kind::Session) {
      if (f.text("attr") == "run") return session_run(e, scope);
      refuse(e, "the session method '" + f.text("attr") + "' cannot be lowered");
    }
  }
  std::optional<std::string> q = qualified_name(f);
  if (!q)
    refuse(e, "calls of methods of objects cannot be lowered",
           {"objects, I/O and state are not lowered; the program is its functions and its "
            "last statement"});
  return lower_library_call(e, *q, scope);
}

Value Lowerer::lower_user_call(const Node& e, const FunctionInfo& f, Scope& scope) {
  if (!call_keywords(e).empty()) refuse(e, "keyword arguments cannot be lowered");
  std::vector<Value> args = positional_args(e, scope, f.params.size(), f.params.size(), {});
  std::vector<Syntax> kids;
  std::vector<Shape> shapes;
  for (const Value& v : args) {
    kids.push_back(v.syntax);
    shapes.push_back(v.shape);
  }
  call_shapes_[f.name.str()].push_back(shapes);
  // A parameter whose tuple shape was inferred from the other calls (run()).
  for (std::size_t k = 0; k < f.param_inferred.size() && k < shapes.size(); ++k)
    if (f.param_inferred[k] && f.param_shapes[k].kind == Shape::Kind::Tuple &&
        shapes[k].kind != Shape::Kind::Tuple)
      refuse(*call_args(e)[k],
             "the parameter '" + f.params[k] + "' of '" + e.child("func")->text("id") +
                 "' is given " + to_string(shapes[k]) + " here and " +
                 to_string(f.param_shapes[k]) + " by its other calls",
             {"a parameter has one type; annotate it to say which"});
  return Value{syn_call(f.name, kids, loc(e)), f.result};
}

Value Lowerer::lower_cond_call(const Node& e, Scope& scope) {
  const Node* pred = nullptr;
  const Node* t = nullptr;
  const Node* f = nullptr;
  const auto& args = call_args(e);
  if (args.size() > 0) pred = args[0].get();
  if (args.size() > 1) t = args[1].get();
  if (args.size() > 2) f = args[2].get();
  if (args.size() > 3) refuse(e, "tf.cond takes at most 3 positional arguments");
  for (const NodePtr& k : call_keywords(e)) {
    const std::string& name = k->text("arg");
    const Node* v = k->child("value");
    if (name == "pred")
      pred = v;
    else if (name == "true_fn" || name == "fn1")
      t = v;
    else if (name == "false_fn" || name == "fn2")
      f = v;
    else if (name != "name")
      refuse(*k, "this keyword argument of tf.cond cannot be lowered");
  }
  if (!pred || !t || !f) refuse(e, "tf.cond needs a predicate and two branches");
  Value a = lower_branch(*t, scope);
  Value b = lower_branch(*f, scope);
  return conditional(*pred, scope, a, b, loc(e));
}

// A branch of tf.cond: a `lambda:`, a nested def of no parameters, or a top-level function of
// no parameters.
Value Lowerer::lower_branch(const Node& fn, Scope& scope) {
  if (fn.is(Kind::Lambda)) {
    const Node& args = *fn.child("args");
    if (!args.list("args").empty() || !args.list("posonlyargs").empty() ||
        !args.list("kwonlyargs").empty() || args.child("vararg") || args.child("kwarg"))
      refuse(fn, "a branch of tf.cond takes no parameters");
    return lower_thunk(fn, scope);
  }
  if (fn.is(Kind::Name)) {
    const std::string& id = fn.text("id");
    auto it = scope.find(id);
    if (it != scope.end() && it->second.kind == Binding::Kind::Thunk)
      return lower_thunk(*it->second.thunk, scope);
    if (const FunctionInfo* f = function_named(id); f && f->params.empty() && it == scope.end()) {
      use_function(fn, id, *f);
      return Value{syn_call(f->name, {}, loc(fn)), f->result};
    }
  }
  refuse(fn, "a branch of tf.cond must be a lambda or a function of no parameters");
}

Value Lowerer::lower_gradients(const Node& e, Scope& scope) {
  if (!in_module_ || !current_function_.empty())
    refuse(e, "tf.gradients is lowered only at the top level of the script");
  const auto& args = call_args(e);
  for (const NodePtr& k : call_keywords(e))
    if (k->text("arg") != "name")
      refuse(*k, "this keyword argument of tf.gradients cannot be lowered");
  if (args.size() != 2) refuse(e, "tf.gradients(ys, xs) takes two arguments");
  const Node& ys = *args[0];
  if (!ys.is(Kind::Name))
    refuse(ys, "the ys of tf.gradients must be a name bound at the top level");
  std::vector<const Node*> xs;
  if (args[1]->is(Kind::List) || args[1]->is(Kind::Tuple)) {
    for (const NodePtr& x : args[1]->list("elts"))
      xs.push_back(x.get());
  } else {
    xs.push_back(args[1].get());
  }
  if (xs.empty()) refuse(*args[1], "tf.gradients needs at least one x");
  if (top_opaque_)
    refuse(e, "tf.gradients after a top-level if, loop or with block cannot be lowered",
           {"bind the values it differentiates with plain assignments"});
  // The bindings from the first x up to ys, re-bound inside the derivative's body so that ys
  // is a function of the xs: M.rd_L(x. let ... in ys) with M = 1 (ys is a scalar).
  std::size_t first = top_.size(), last = top_.size();
  for (std::size_t i = top_.size(); i-- > 0;) {
    if (last == top_.size() && top_[i].python == ys.text("id")) last = i;
  }
  if (last == top_.size()) refuse(ys, "'" + ys.text("id") + "' is not bound at the top level");
  std::vector<Name> xnames;
  std::vector<Shape> xshapes;
  for (const Node* x : xs) {
    if (!x->is(Kind::Name)) refuse(*x, "the xs of tf.gradients must be names");
    std::size_t at = top_.size();
    for (std::size_t i = 0; i <= last; ++i)
      if (top_[i].python == x->text("id")) at = i;
    if (at == top_.size()) refuse(*x, "'" + x->text("id") + "' is not bound before the ys");
    first = std::min(first, at);
    xnames.push_back(top_[at].name);
    xshapes.push_back(top_[at].shape);
  }
  if (!top_[last].shape.is_scalar()) refuse(ys, "tf.gradients of a non-scalar cannot be lowered");
  SourceLoc l = loc(e);
  Syntax body = syn_var(top_[last].name, l);
  for (std::size_t i = last + 1; i-- > first + 1;) {
    bool is_x = false;
    for (Name x : xnames)
      is_x = is_x || x == top_[i].name;
    if (!is_x && top_[i].syntax) body = syn_let(top_[i].name, top_[i].syntax, body, l);
  }
  std::vector<Syntax> point;
  for (Name x : xnames)
    point.push_back(syn_var(x, l));
  SyntaxNode* rd = syn_new(SyntaxKind::Rd, l);
  if (xnames.size() == 1) {
    rd->binders = {Binder{xnames[0], xshapes[0].type(), l}};
  } else {
    Name p = fresh("xs");
    rd->binders = {Binder{p, Shape::tuple(xshapes).type(), l}};
    body = syn_tuple_let(xnames, xshapes, syn_var(p, l), body, l);
  }
  rd->kids = {syn_number("1", l), syn_tuple(point, l), body};
  (void)scope;
  return Value{Syntax(rd), Shape::list(xshapes)};
}

}  // namespace adlang::py
