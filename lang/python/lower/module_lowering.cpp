// The module: imports, the functions (top-level defs, function.Declare + @function.Defun
// pairs), the top-level statements as the program's term, the script's own sess.run and
// feed_dict, and the entry point lower_python (docs/python.md).
#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <tuple>

#include "lang/diagnostics.hpp"
#include "lang/near_miss.hpp"
#include "lang/op.hpp"
#include "lang/printer.hpp"
#include "lang/python/ast/py_parse.hpp"
#include "lang/python/lower/lowerer.hpp"

namespace adlang::py {

namespace {

// The .ad keywords a Python name may collide with.
bool is_keyword(const std::string& s) {
  static const std::set<std::string> k = {"def", "let", "letrec", "in",    "if",   "then", "else",
                                          "fst", "snd", "true",   "false", "real", "unit", "grad"};
  return k.count(s) > 0;
}

std::optional<std::string> dotted(const Node& e) {
  if (e.is(Kind::Name)) return e.text("id");
  if (e.is(Kind::Attribute)) {
    std::optional<std::string> base = dotted(*e.child("value"));
    if (base) return *base + "." + e.text("attr");
  }
  return std::nullopt;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool is_number_literal(const Node& v) {
  const Node* k = &v;
  if (v.is(Kind::UnaryOp) && v.text("op") == "USub") k = v.child("operand");
  return k->is(Kind::Constant) &&
         (k->constant_type == ConstantType::Int || k->constant_type == ConstantType::Float);
}

std::string literal_text(const Node& v) {
  if (v.is(Kind::UnaryOp)) return "-" + v.child("operand")->text("value");
  return v.text("value");
}

}  // namespace

Lowerer::Lowerer(const Node& module) : module_(module) {}

SourceLoc Lowerer::loc(const Node& n) const {
  return loc_of(n);
}

void Lowerer::refuse(const Node& n, const std::string& message,
                     std::vector<std::string> notes) const {
  SourceLoc l = loc(n);
  if (!n.span.known())
    l = SourceLoc{module_.list("body").empty() ? 1u : module_.list("body")[0]->span.line, 1};
  throw CompileError(l, message, std::move(notes));
}

Name Lowerer::ad_name(const std::string& python_name) const {
  auto it = renamed_.find(python_name);
  return it != renamed_.end() ? it->second : Name(python_name);
}

Name Lowerer::fresh(const std::string& base) {
  Name n = names_.fresh(base);
  generated_.push_back(n);
  return n;
}

std::optional<std::string> Lowerer::qualified_name(const Node& e) const {
  std::optional<std::string> d = dotted(e);
  if (!d) return std::nullopt;
  std::string head = d->substr(0, d->find('.'));
  std::string rest = d->size() > head.size() ? d->substr(head.size()) : "";
  auto it = imports_.find(head);
  if (it != imports_.end()) return it->second + rest;
  return d;
}

const FunctionInfo* Lowerer::function_named(const std::string& python_name) const {
  auto it = functions_.find(python_name);
  return it == functions_.end() ? nullptr : &it->second;
}

void Lowerer::collect_identifiers(const Node& n) {
  switch (n.kind) {
    case Kind::Name:
      identifiers_.insert(n.text("id"));
      break;
    case Kind::FunctionDef:
      identifiers_.insert(n.text("name"));
      break;
    case Kind::arg:
      identifiers_.insert(n.text("arg"));
      break;
    default:
      break;
  }
  for (const Field& f : n.fields) {
    if (f.tag == Field::Tag::Node && f.node) collect_identifiers(*f.node);
    if (f.tag == Field::Tag::List)
      for (const NodePtr& k : f.list)
        if (k) collect_identifiers(*k);
  }
}

void Lowerer::collect_import(const Node& s) {
  for (const NodePtr& a : s.list("names")) {
    const std::string& name = a->text("name");
    const std::string& as = a->text("asname");
    if (name == "*") refuse(s, "import * cannot be lowered");
    if (s.is(Kind::Import)) {
      if (!as.empty())
        imports_[as] = name;
      else
        imports_[name.substr(0, name.find('.'))] = name.substr(0, name.find('.'));
    } else {
      if (s.field("level").integer != 0) refuse(s, "relative imports cannot be lowered");
      imports_[as.empty() ? name : as] = s.text("module") + "." + name;
    }
  }
}

Shape Lowerer::tf_dtype_shape(const Node& dtype) {
  std::optional<std::string> q = qualified_name(dtype);
  if (q && q->rfind("tensorflow.", 0) == 0) {
    std::string t = q->substr(q->rfind('.') + 1);
    if (t == "bool") return Shape::boolean();
    if (t.rfind("int", 0) == 0 || t.rfind("uint", 0) == 0 || t.rfind("float", 0) == 0 ||
        t == "double" || t == "half" || t == "bfloat16")
      return Shape::real();
  }
  refuse(dtype, "this dtype cannot be lowered",
         {"lowered: TensorFlow's int, float and bool scalars"});
}

Shape Lowerer::annotation_shape(const Node* a) {
  if (!a) return Shape::real();
  if (a->is(Kind::Name)) {
    const std::string& id = a->text("id");
    if (id == "float" || id == "int") return Shape::real();
    if (id == "bool") return Shape::boolean();
  }
  if (a->is(Kind::Constant) && a->constant_type == ConstantType::None) return Shape::unit();
  if (a->is(Kind::Subscript) && a->child("value")->is(Kind::Name) &&
      (a->child("value")->text("id") == "tuple" || a->child("value")->text("id") == "Tuple")) {
    const Node& idx = *a->child("slice");
    std::vector<Shape> parts;
    if (idx.is(Kind::Tuple)) {
      for (const NodePtr& p : idx.list("elts"))
        parts.push_back(annotation_shape(p.get()));
    } else {
      parts.push_back(annotation_shape(&idx));
    }
    if (parts.size() < 2)
      refuse(*a, "a one-element tuple cannot be lowered",
             {"the language has no one-element tuples: a tuple type has two or more "
              "components, and real^1 is real"});
    return Shape::tuple(parts);
  }
  refuse(*a, "this annotation cannot be lowered", {"lowered: float, int, bool, None, tuple[...]"});
}

void Lowerer::collect_declare(const Node& target, const Node& call) {
  if (!target.is(Kind::Name)) refuse(target, "function.Declare must be bound to a name");
  const auto& args = call_args(call);
  if (args.size() != 3 || !args[0]->is(Kind::Constant) ||
      args[0]->constant_type != ConstantType::Str)
    refuse(call, "function.Declare(name, inputs, outputs) takes a name and two lists");
  FunctionInfo f;
  std::string py = target.text("id");
  f.name = ad_name(py);
  f.loc = loc(call);
  for (int which = 1; which <= 2; ++which) {
    const Node& list = *args[static_cast<std::size_t>(which)];
    if (!list.is(Kind::List)) refuse(list, "expected a list of (name, dtype) pairs");
    std::vector<Shape> shapes;
    for (const NodePtr& p : list.list("elts")) {
      if (!p->is(Kind::Tuple) || p->list("elts").size() != 2)
        refuse(*p, "expected a (name, dtype) pair");
      if (which == 1) f.params.push_back(p->list("elts")[0]->str_value);
      shapes.push_back(tf_dtype_shape(*p->list("elts")[1]));
    }
    if (which == 1)
      f.param_shapes = shapes;
    else {
      if (shapes.empty()) refuse(list, "a function needs at least one output");
      f.result = Shape::tuple(shapes);
    }
  }
  f.result_fixed = true;
  declares_[args[0]->str_value] = &target;
  functions_[py] = f;
}

void Lowerer::collect_def(const Node& def) {
  const Node& args = *def.child("args");
  if (args.child("vararg") || args.child("kwarg") || !args.list("kwonlyargs").empty() ||
      !args.list("defaults").empty() || !args.list("posonlyargs").empty())
    refuse(def, "default values, *args, **kwargs and keyword-only parameters cannot be lowered");
  FunctionInfo f;
  std::string py = def.text("name");
  f.name = ad_name(py);
  if (Op::lookup(py) || Pred::lookup(py)) f.name = base_names_.fresh(py + "_fn");
  f.def = &def;
  f.loc = loc(def);
  for (const NodePtr& a : args.list("args")) {
    f.params.push_back(a->text("arg"));
    f.param_shapes.push_back(annotation_shape(a->child("annotation")));
    f.param_inferred.push_back(a->child("annotation") == nullptr);
  }
  if (def.child("returns")) {
    f.result = annotation_shape(def.child("returns"));
    f.result_fixed = true;
  }
  const auto& decorators = def.list("decorator_list");
  if (decorators.size() > 1) refuse(def, "a function with several decorators cannot be lowered");
  if (decorators.size() == 1) {
    const Node& d = *decorators[0];
    std::optional<std::string> q = d.is(Kind::Call) ? qualified_name(call_func(d)) : std::nullopt;
    if (!q || !ends_with(*q, "function.Defun"))
      refuse(d, "this decorator cannot be lowered", {"lowered: @function.Defun(...)"});
    std::vector<Shape> dtypes;
    for (const NodePtr& t : call_args(d))
      dtypes.push_back(tf_dtype_shape(*t));
    if (dtypes.size() != f.params.size())
      refuse(d, "@function.Defun gives " + std::to_string(dtypes.size()) + " input types for " +
                    std::to_string(f.params.size()) + " parameters");
    f.param_shapes = dtypes;
    f.param_inferred.assign(dtypes.size(), false);
    std::string func_name;
    const Node* func_name_node = nullptr;
    for (const NodePtr& k : call_keywords(d)) {
      const std::string& kw = k->text("arg");
      if (kw == "func_name") {
        const Node* v = k->child("value");
        if (!v->is(Kind::Constant) || v->constant_type != ConstantType::Str)
          refuse(*v, "func_name must be a string literal");
        func_name = v->str_value;
        func_name_node = v;
      } else if (kw != "out_names" && kw != "noinline" && kw != "python_grad_func") {
        refuse(*k, "this argument of @function.Defun cannot be lowered");
      }
    }
    auto declared = declares_.find(func_name);
    if (!func_name.empty() && declared != declares_.end()) {
      // The Declare'd function gets this body; the def's own name calls it too.
      FunctionInfo& decl = functions_[declared->second->text("id")];
      if (decl.def) refuse(def, "'" + func_name + "' is defined twice");
      if (decl.param_shapes != dtypes)
        refuse(d, "the input types of @function.Defun differ from those of function.Declare('" +
                      func_name + "')");
      decl.def = &def;
      decl.params = f.params;
      functions_[py] = decl;
      functions_[py].name = decl.name;
      return;
    }
    if (func_name_node) unmatched_defuns_.emplace_back(func_name, func_name_node);
  }
  functions_[py] = f;
}

void Lowerer::collect_constant(const Node& s) {
  // Globals bound once, at the top level, to a number literal are readable inside functions.
  if (!s.is(Kind::Assign) || s.list("targets").size() != 1 || !s.list("targets")[0]->is(Kind::Name))
    return;
  const Node* v = s.child("value");
  if (v->is(Kind::Call) && qualified_name(call_func(*v)) == "tensorflow.constant" &&
      call_args(*v).size() == 1)
    v = call_args(*v)[0].get();
  if (!is_number_literal(*v)) return;
  std::string id = s.list("targets")[0]->text("id");
  std::vector<std::string> assigned;
  std::vector<NodePtr> top;
  for (const NodePtr& st : module_.list("body"))
    if (!st->is(Kind::FunctionDef)) top.push_back(st);
  // Count the assignments of `id` outside functions.
  std::size_t count = 0;
  std::function<void(const std::vector<NodePtr>&)> count_in = [&](const std::vector<NodePtr>& b) {
    for (const NodePtr& st : b) {
      std::vector<std::string> names;
      if (st->is(Kind::Assign))
        for (const NodePtr& t : st->list("targets"))
          if (t->is(Kind::Name) && t->text("id") == id) ++count;
      if (st->is(Kind::AugAssign) || st->is(Kind::AnnAssign) || st->is(Kind::For))
        if (st->child("target")->is(Kind::Name) && st->child("target")->text("id") == id) ++count;
      for (const char* f : {"body", "orelse"}) {
        for (std::string_view n : field_names(st->kind))
          if (n == f && !st->is(Kind::FunctionDef)) count_in(st->list(f));
      }
    }
  };
  count_in(top);
  if (count == 1) constants_[id] = Value{syn_number(literal_text(*v), loc(*v)), Shape::real()};
}

void Lowerer::collect_module() {
  collect_identifiers(module_);
  for (const std::string& id : identifiers_)
    base_names_.reserve(Name(id));
  for (const std::string& id : identifiers_)
    if (is_keyword(id)) renamed_[id] = base_names_.fresh(id + "_");
  // Imports of the top level, also inside its if and with blocks (where they run, they bind
  // the module's global; lower_if tells which paths bind it).
  std::function<void(const std::vector<NodePtr>&)> imports = [&](const std::vector<NodePtr>& b) {
    for (const NodePtr& s : b) {
      if (s->is(Kind::Import) || s->is(Kind::ImportFrom)) collect_import(*s);
      if (s->is(Kind::If) || s->is(Kind::With)) imports(s->list("body"));
      if (s->is(Kind::If)) imports(s->list("orelse"));
    }
  };
  imports(module_.list("body"));
  for (const NodePtr& s : module_.list("body")) {
    if (s->is(Kind::Assign) && s->child("value")->is(Kind::Call)) {
      std::optional<std::string> q = qualified_name(call_func(*s->child("value")));
      if (q && ends_with(*q, "function.Declare")) {
        if (s->list("targets").size() != 1)
          refuse(*s, "function.Declare must be bound to one name");
        collect_declare(*s->list("targets")[0], *s->child("value"));
        continue;
      }
    }
    if (s->is(Kind::FunctionDef)) collect_def(*s);
    collect_constant(*s);
  }
  // Where each global is first bound: imports, defs, assignments (also inside the top level's
  // if, loops and with), for the refusal of a use that runs before it.
  const auto& body = module_.list("body");
  for (const NodePtr& s : body) {
    if (s->is(Kind::Import) || s->is(Kind::ImportFrom)) {
      for (const NodePtr& a : s->list("names")) {
        const std::string& name = a->text("name");
        const std::string& as = a->text("asname");
        std::string local = !as.empty()               ? as
                            : s->is(Kind::ImportFrom) ? name
                                                      : name.substr(0, name.find('.'));
        module_assigned_.emplace(local, s.get());
      }
    }
    if (s->is(Kind::FunctionDef)) module_assigned_.emplace(s->text("name"), s.get());
  }
  for (const std::string& x : names_assigned_in(body))
    module_assigned_.emplace(x, first_assignment(body, x, false));
  for (const auto& [py, f] : functions_) {
    if (f.def) continue;
    // The Declare of `py`, and a Defun whose func_name is a near miss of the declared name
    // (the thesis's Declare("tak") with Defun(func_name="Tak")).
    const Node* declare = declares_.begin()->second;
    std::string declared;
    for (const auto& [tf_name, target] : declares_) {
      if (target->text("id") == py) {
        declare = target;
        declared = tf_name;
      }
    }
    std::vector<std::string> defun_names;
    for (const auto& [name, node] : unmatched_defuns_)
      defun_names.push_back(name);
    std::vector<std::string> notes;
    if (std::optional<std::string> near = nearest_name(declared, defun_names)) {
      const Node* at = nullptr;
      for (const auto& [name, node] : unmatched_defuns_)
        if (name == *near && !at) at = node;
      std::string lower_near = *near, lower_declared = declared;
      for (std::string* w : {&lower_near, &lower_declared})
        for (char& c : *w)
          c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      notes.push_back(
          "the @function.Defun on line " + std::to_string(loc(*at).line) + " has func_name=\"" +
          *near + "\": did you mean func_name=\"" + declared + "\"?" +
          (lower_near == lower_declared ? " (TensorFlow's function names are case-sensitive)"
                                        : ""));
    } else {
      notes.push_back("give the definition func_name=\"...\" with the declared name");
    }
    refuse(*declare,
           "'" + py + "' is declared with function.Declare(\"" + declared +
               "\") but no @function.Defun defines it",
           notes);
  }
}

SyntaxDef Lowerer::lower_function(const FunctionInfo& f) {
  current_function_ = f.name.str();
  in_module_ = false;
  in_loop_ = false;
  const Node& def = *f.def;
  def_ = f.name.str();
  current_def_python_ = def.text("name");
  def_locals_ = std::set<std::string>(f.params.begin(), f.params.end());
  for (const std::string& x : names_assigned_in(def.list("body")))
    def_locals_.insert(x);
  std::function<void(const std::vector<NodePtr>&)> nested_defs =
      [&](const std::vector<NodePtr>& stmts) {
        for (const NodePtr& st : stmts) {
          if (st->is(Kind::FunctionDef)) def_locals_.insert(st->text("name"));
          if (st->is(Kind::FunctionDef) || st->is(Kind::ClassDef)) continue;
          for (const char* fld : {"body", "orelse"})
            for (std::string_view n : field_names(st->kind))
              if (n == fld) nested_defs(st->list(fld));
        }
      };
  nested_defs(def.list("body"));
  Scope scope;
  std::vector<Name> params;
  for (std::size_t k = 0; k < f.params.size(); ++k) {
    Binding b;
    b.name = ad_name(f.params[k]);
    b.shape = f.param_shapes[k];
    scope[f.params[k]] = b;
    params.push_back(b.name);
  }
  Tail fall{[&](Scope&) -> Value {
              refuse(def, "the function '" + def.text("name") +
                              "' can end without returning a value (None cannot be lowered)");
            },
            false};
  Value body = lower_block(def.list("body"), 0, scope, fall);
  SourceLoc l = f.loc;
  Name param;
  Syntax syntax = body.syntax;
  if (params.size() == 1) {
    param = params[0];
  } else {
    param = fresh(params.empty() ? "unit_arg" : "args");
    syntax = syn_tuple_let(params, f.param_shapes, syn_var(param, l), syntax, l);
  }
  body_shape_ = body.shape;
  current_function_.clear();
  def_.clear();
  current_def_python_.clear();
  def_locals_.clear();
  return SyntaxDef{f.name, Binder{param, Shape::tuple(f.param_shapes).type(), l}, f.result.type(),
                   syntax, l};
}

bool Lowerer::module_statement(const std::vector<NodePtr>& stmts, std::size_t i, Scope& scope,
                               const Tail& tail, Value& out) {
  const Node& s = *stmts[i];
  auto next = [&](Scope& sc) { return lower_block(stmts, i + 1, sc, tail); };
  bool last = tail.module_end && i + 1 == stmts.size();
  switch (s.kind) {
    case Kind::Import:
    case Kind::ImportFrom:
      for (const NodePtr& a : s.list("names")) {
        const std::string& name = a->text("name");
        const std::string& as = a->text("asname");
        executed_.insert(!as.empty()              ? as
                         : s.is(Kind::ImportFrom) ? name
                                                  : name.substr(0, name.find('.')));
      }
      out = next(scope);
      return true;
    case Kind::FunctionDef:
      // Only the module's own defs are its functions; a def inside the top level's if or
      // with is a nested function (refused if it has parameters, inlined as a tf.cond
      // branch if not).
      if (const FunctionInfo* f = function_named(s.text("name")); !f || f->def != &s) return false;
      executed_.insert(s.text("name"));
      out = next(scope);
      return true;
    case Kind::Assign: {
      const auto& targets = s.list("targets");
      const Node& v = *s.child("value");
      std::optional<std::string> q = v.is(Kind::Call) ? qualified_name(call_func(v)) : std::nullopt;
      if (q && ends_with(*q, "function.Declare")) {
        for (const NodePtr& t : targets)
          if (t->is(Kind::Name)) executed_.insert(t->text("id"));
        out = next(scope);
        return true;
      }
      if (q && (*q == "tensorflow.placeholder" || *q == "tensorflow.compat.v1.placeholder")) {
        if (targets.size() != 1 || !targets[0]->is(Kind::Name))
          refuse(s, "a placeholder must be bound to one name");
        const auto& args = call_args(v);
        if (args.empty() && !find_keyword(v, "dtype")) refuse(v, "tf.placeholder needs a dtype");
        Shape shape =
            tf_dtype_shape(args.empty() ? *find_keyword(v, "dtype")->child("value") : *args[0]);
        const Node* sh = args.size() > 1 ? args[1].get() : nullptr;
        if (const Node* k = find_keyword(v, "shape")) sh = k->child("value");
        if (sh && !(sh->is(Kind::Constant) && sh->constant_type == ConstantType::None) &&
            !((sh->is(Kind::List) || sh->is(Kind::Tuple)) && sh->list("elts").empty()))
          refuse(*sh, "placeholders of rank > 0 cannot be lowered", {"use shape=[]"});
        const std::string& id = targets[0]->text("id");
        executed_.insert(id);
        Binding b;
        b.name = ad_name(id);
        b.shape = shape;
        scope[id] = b;
        top_.push_back(TopBinding{id, b.name, shape, Syntax()});
        out = next(scope);
        return true;
      }
      if (q && (*q == "tensorflow.train.ClusterSpec" ||
                *q == "tensorflow.compat.v1.train.ClusterSpec")) {
        if (targets.size() != 1 || !targets[0]->is(Kind::Name))
          refuse(s, "a cluster spec must be bound to one name");
        Binding b;
        b.kind = Binding::Kind::Opaque;
        scope[targets[0]->text("id")] = b;
        out = next(scope);
        return true;
      }
      if (targets.size() == 1 && targets[0]->is(Kind::Name)) {
        Value val = lower_expr(v, scope);
        const std::string& id = targets[0]->text("id");
        executed_.insert(id);
        Name x = ad_name(id);
        top_.push_back(TopBinding{id, x, val.shape, val.syntax});
        out = bind_targets(*targets[0], val, scope, next, loc(s));
        return true;
      }
      top_opaque_ = true;
      return false;
    }
    case Kind::Expr: {
      const Node& v = *s.child("value");
      if (v.is(Kind::Call)) {
        const Node& f = call_func(v);
        if (f.is(Kind::Attribute) && f.text("attr") == "add_to_graph" &&
            f.child("value")->is(Kind::Name) && function_named(f.child("value")->text("id"))) {
          out = next(scope);
          return true;
        }
      }
      if (!last) {
        if (v.is(Kind::Constant) && v.constant_type == ConstantType::Str) return false;
        refuse(s, "only the module's last statement can be an expression or print(E)",
               {"the program's term is the module's last statement; other I/O is not lowered"});
      }
      const Node* term = &v;
      if (v.is(Kind::Call) && call_func(v).is(Kind::Name) && call_func(v).text("id") == "print" &&
          !scope.count("print")) {
        if (call_args(v).size() != 1 || !call_keywords(v).empty())
          refuse(v, "the final print must print exactly one value");
        term = call_args(v)[0].get();
      }
      out = lower_expr(*term, scope);
      return true;
    }
    case Kind::AnnAssign: {
      // `x: T` without a value declares the input x of shape T (a placeholder of plain Python).
      if (s.child("value")) return false;
      const Node& t = *s.child("target");
      if (!t.is(Kind::Name)) refuse(t, "only a name can be declared as an input");
      Binding b;
      b.name = ad_name(t.text("id"));
      b.shape = annotation_shape(s.child("annotation"));
      scope[t.text("id")] = b;
      top_.push_back(TopBinding{t.text("id"), b.name, b.shape, Syntax()});
      out = next(scope);
      return true;
    }
    case Kind::If:
    case Kind::While:
    case Kind::For:
      top_opaque_ = true;
      return false;
    case Kind::Return:
      refuse(s, "return outside a function");
    default:
      return false;
  }
}

Value Lowerer::session_run(const Node& call, Scope& scope) {
  const auto& args = call_args(call);
  if (args.size() != 1) refuse(call, "sess.run takes one fetch");
  for (const NodePtr& k : call_keywords(call)) {
    if (k->text("arg") != "feed_dict") refuse(*k, "this argument of sess.run cannot be lowered");
    const Node& d = *k->child("value");
    if (!d.is(Kind::Dict)) refuse(d, "feed_dict must be a dict literal");
    const auto& keys = d.list("keys");
    const auto& values = d.list("values");
    std::vector<DefaultInput> defaults;
    for (std::size_t j = 0; j < keys.size(); ++j) {
      if (!keys[j] || !keys[j]->is(Kind::Name)) refuse(d, "feed_dict keys must be placeholders");
      bool is_input = false;
      for (const TopBinding& t : top_)
        is_input = is_input || (t.python == keys[j]->text("id") && !t.syntax);
      if (!is_input) refuse(*keys[j], "'" + keys[j]->text("id") + "' is not a placeholder");
      if (!is_number_literal(*values[j]))
        refuse(*values[j], "feed_dict values must be number literals");
      defaults.push_back(DefaultInput{ad_name(keys[j]->text("id")), literal_text(*values[j])});
    }
    if (out_.defaults.empty()) out_.defaults = defaults;
  }
  const Node& fetch = *args[0];
  if (fetch.is(Kind::List) || fetch.is(Kind::Tuple)) {
    std::vector<Syntax> parts;
    std::vector<Shape> shapes;
    for (const NodePtr& x : fetch.list("elts")) {
      Value v = lower_expr(*x, scope);
      parts.push_back(v.syntax);
      shapes.push_back(v.shape);
    }
    if (parts.empty()) refuse(fetch, "sess.run of nothing");
    return Value{syn_tuple(parts, loc(fetch)), Shape::tuple(shapes)};
  }
  return lower_expr(fetch, scope);
}

Value Lowerer::lower_module_body() {
  in_module_ = true;
  in_loop_ = false;
  current_function_.clear();
  executed_.clear();
  partial_globals_.clear();
  const auto& body = module_.list("body");
  Tail end{[&](Scope&) -> Value {
             const Node& at = body.empty() ? module_ : *body.back();
             refuse(at,
                    "the module's last statement must be an expression or print(E): the "
                    "program's term");
           },
           true};
  return lower_block(body, 0, Scope{}, end);
}

LoweredPython Lowerer::run() {
  collect_module();
  // The functions' result shapes: declared ones are fixed; the others start as real and are
  // re-inferred from the lowered bodies until they are stable. Likewise a parameter without an
  // annotation starts as real and takes the tuple shape every call of its function gives it
  // (`def norm(p): a, b = p` called as `norm((x, y))`). While shapes still change, a pass may
  // fail on a guess (unpacking the real a parameter was guessed to be); only the error of a
  // pass whose shapes are stable is the program's.
  std::vector<std::string> primary;
  std::set<std::string> seen;
  for (const auto& [py, f] : functions_) {
    if (seen.insert(f.name.str()).second) primary.push_back(py);
  }
  for (int pass = 0; pass < 16; ++pass) {
    names_ = base_names_;
    generated_.clear();
    loop_defs_.clear();
    out_ = LoweredPython{};
    top_.clear();
    top_opaque_ = false;
    def_globals_.clear();
    def_calls_.clear();
    call_shapes_.clear();
    bool changed = false;
    std::optional<CompileError> failed;
    std::vector<SyntaxDef> defs;
    for (const std::string& py : primary) {
      FunctionInfo f = functions_[py];
      try {
        defs.push_back(lower_function(f));
      } catch (const CompileError& e) {
        if (!failed) failed = e;
        continue;
      }
      if (!f.result_fixed && !(body_shape_ == f.result)) {
        changed = true;
        for (auto& [alias, g] : functions_)
          if (g.name == f.name) g.result = body_shape_;
      }
    }
    Value main;
    try {
      main = lower_module_body();
    } catch (const CompileError& e) {
      if (!failed) failed = e;
    }
    for (const std::string& py : primary) {
      const FunctionInfo& f = functions_[py];
      auto calls = call_shapes_.find(f.name.str());
      if (calls == call_shapes_.end()) continue;
      for (std::size_t k = 0; k < f.param_inferred.size(); ++k) {
        if (!f.param_inferred[k]) continue;
        // The tuple shape the calls agree on; a real argument may be a guess still (the
        // result of a function not yet inferred) and is left to the type checker.
        std::optional<Shape> tuple;
        bool agree = true;
        for (const std::vector<Shape>& c : calls->second) {
          if (c[k].kind != Shape::Kind::Tuple) continue;
          agree = agree && (!tuple || *tuple == c[k]);
          tuple = c[k];
        }
        if (!tuple || !agree || f.param_shapes[k] == *tuple) continue;
        changed = true;
        for (auto& [alias, g] : functions_)
          if (g.name == f.name) g.param_shapes[k] = *tuple;
      }
    }
    if (changed && pass + 1 < 16) continue;
    if (failed) throw *failed;
    for (const SyntaxDef& d : loop_defs_)
      defs.push_back(d);
    out_.program.defs = defs;
    out_.program.main = main.syntax;
    for (const std::string& id : identifiers_)
      out_.program.identifiers.insert(Name(id));
    for (Name n : generated_)
      out_.program.identifiers.insert(n);
    for (const auto& [py, n] : renamed_)
      out_.program.identifiers.insert(n);
    // A nested function inlined at two places records its placements twice.
    auto& pl = out_.placements;
    auto key = [](const Placement& p) {
      return std::tuple(p.begin.line, p.begin.col, p.function, p.device);
    };
    std::sort(pl.begin(), pl.end(),
              [&](const Placement& a, const Placement& b) { return key(a) < key(b); });
    pl.erase(std::unique(pl.begin(), pl.end(),
                         [&](const Placement& a, const Placement& b) { return key(a) == key(b); }),
             pl.end());
    break;
  }
  out_.printed = infer_printed_kind(module_, [this](const Node& e) { return qualified_name(e); });
  return out_;
}

LoweredPython lower_python(const SourceFile& file) {
  NodePtr module = parse_module(file.path(), file.text());
  Lowerer l(*module);
  return l.run();
}

bool is_python_path(const std::string& path) {
  return ends_with(path, ".py");
}

std::vector<std::string> Placement::place_options() const {
  std::vector<std::string> out;
  for (std::uint32_t line = begin.line; line <= end.line; ++line)
    out.push_back((function.empty() ? std::string("main") : function) + ":" + std::to_string(line) +
                  "=" + std::to_string(rank));
  return out;
}

std::string print_lowered(const LoweredPython& lowered) {
  std::string s;
  for (const DefaultInput& d : lowered.defaults)
    s += "-- input " + d.name.str() + " = " + d.value + " (the script's feed_dict)\n";
  for (const Placement& p : lowered.placements) {
    s += "-- placement: " + p.device + ":";
    for (const std::string& o : p.place_options())
      s += " --place " + o;
    s += "\n";
  }
  s += print_syntax_program(lowered.program);
  if (!s.empty() && s.back() != '\n') s += '\n';
  return s;
}

}  // namespace adlang::py
