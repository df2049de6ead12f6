// The static inference of the kind of a Python program's printed value (python_kind.hpp): an
// abstract run of the module over kinds. Each rule is Python 3's (or TensorFlow's for its
// operations); a value whose kind depends on the path is the join of the paths' kinds. A
// function's result is inferred per tuple of argument kinds (f(3) and f(3.0) differ), by a
// fixpoint over the whole module for recursion; a loop's variables by a fixpoint over its body.
#include "lang/python/lower/python_kind.hpp"

#include <bit>
#include <map>
#include <set>

#include "lang/python/lower/lowerer.hpp"

namespace adlang::py {

PythonKind join(const PythonKind& a, const PythonKind& b) {
  using Tag = PythonKind::Tag;
  if (a.tag == Tag::None) return b;
  if (b.tag == Tag::None) return a;
  if (a.tag != b.tag || a.tag == Tag::Unknown) return PythonKind::unknown();
  if (a.tag == Tag::Scalar) return PythonKind::scalar(a.scalars | b.scalars);
  if (a.parts.size() != b.parts.size()) return PythonKind::unknown();
  PythonKind r = a;
  for (std::size_t i = 0; i < r.parts.size(); ++i)
    r.parts[i] = join(a.parts[i], b.parts[i]);
  return r;
}

namespace {

std::string scalar_names(unsigned s, const char* sep) {
  std::string out;
  for (auto [bit, name] : {std::pair{PythonKind::Int, "int"}, std::pair{PythonKind::Float, "float"},
                           std::pair{PythonKind::Bool, "bool"}}) {
    if (!(s & bit)) continue;
    out += (out.empty() ? "" : sep) + std::string(name);
  }
  return out;
}

}  // namespace

std::string to_string(const PythonKind& k) {
  switch (k.tag) {
    case PythonKind::Tag::None:
      return "no value";
    case PythonKind::Tag::Scalar:
      return scalar_names(k.scalars, " or ");
    case PythonKind::Tag::Unknown:
      return "unknown";
    case PythonKind::Tag::Tuple:
    case PythonKind::Tag::List: {
      bool tuple = k.tag == PythonKind::Tag::Tuple;
      std::string s = tuple ? "(" : "[";
      for (std::size_t i = 0; i < k.parts.size(); ++i)
        s += (i ? ", " : "") + to_string(k.parts[i]);
      if (tuple && k.parts.size() == 1) s += ",";
      return s + (tuple ? ")" : "]");
    }
  }
  return "unknown";
}

namespace {

using Env = std::map<std::string, PythonKind>;

// What a block does: the variables' kinds where it falls through (none: it always returns),
// and the join of the kinds it returns.
struct Flow {
  std::optional<Env> fall;
  PythonKind returned;
};

Env join_envs(const Env& a, const Env& b) {
  Env r = a;
  for (const auto& [x, k] : b)
    r[x] = r.count(x) ? join(r[x], k) : k;
  return r;
}

const PythonKind kInt = PythonKind::scalar(PythonKind::Int);
const PythonKind kFloat = PythonKind::scalar(PythonKind::Float);
const PythonKind kBool = PythonKind::scalar(PythonKind::Bool);

// The kind of a number literal or a TensorFlow dtype (tf.int32: int).
PythonKind dtype_kind(const std::string& qualified) {
  std::string t = qualified.substr(qualified.rfind('.') + 1);
  if (t == "bool") return kBool;
  if (t.rfind("int", 0) == 0 || t.rfind("uint", 0) == 0) return kInt;
  if (t.rfind("float", 0) == 0 || t == "double" || t == "half" || t == "bfloat16") return kFloat;
  return PythonKind::unknown();
}

// The kind of a scalar arithmetic result, bit by bit of the operands' possible kinds: `rule`
// gives the result of one pair (a bool is an int in arithmetic: True + 1 == 2).
template <class Rule>
PythonKind arithmetic(const PythonKind& a, const PythonKind& b, Rule rule) {
  using Tag = PythonKind::Tag;
  if (a.tag == Tag::None || b.tag == Tag::None) return PythonKind::none();
  if (a.tag != Tag::Scalar || b.tag != Tag::Scalar) return PythonKind::unknown();
  unsigned out = 0;
  for (unsigned x : {PythonKind::Int, PythonKind::Float, PythonKind::Bool})
    for (unsigned y : {PythonKind::Int, PythonKind::Float, PythonKind::Bool})
      if ((a.scalars & x) && (b.scalars & y))
        out |= rule(x == PythonKind::Float, y == PythonKind::Float);
  return PythonKind::scalar(out);
}

// + - * // % (and TensorFlow's add, floormod, ...): int if both are ints (or bools), else float.
PythonKind numeric(const PythonKind& a, const PythonKind& b) {
  return arithmetic(a, b, [](bool fa, bool fb) -> unsigned {
    return fa || fb ? PythonKind::Float : PythonKind::Int;
  });
}

// Unary -, +, abs: a bool becomes an int (-True == -1).
PythonKind numeric(const PythonKind& a) {
  return numeric(a, kInt);
}

class Inference {
 public:
  Inference(const Node& module, const std::function<std::optional<std::string>(const Node&)>& q)
      : module_(module), qualify_(q) {}

  PrintedKind run();

 private:
  struct Function {
    const Node* def = nullptr;
    std::vector<PythonKind> params;    // declared (Defun's dtypes): empty if not
    std::optional<PythonKind> result;  // declared (Declare's outputs)
  };
  // A function and its arguments' kinds (to_string tells kinds apart).
  using Key = std::pair<const Node*, std::string>;

  void collect();
  Flow block(const std::vector<NodePtr>& stmts, Env env);
  Flow statement(const Node& s, Env env);
  Flow loop(const Node& s, Env env);
  void bind(const Node& target, const PythonKind& k, Env& env);
  PythonKind expr(const Node& e, Env& env);
  PythonKind name(const std::string& id, Env& env);
  PythonKind call(const Node& e, Env& env);
  PythonKind user_call(const Function& f, std::vector<PythonKind> args);
  PythonKind library_call(const Node& e, const std::string& q, Env& env);
  PythonKind branch(const Node* fn, Env& env);
  PythonKind annotation(const Node* a);

  const Node& module_;
  const std::function<std::optional<std::string>(const Node&)>& qualify_;
  std::map<std::string, Function> functions_;  // by the Python name that calls it
  std::map<std::string, const Node*> thunks_;  // nested defs: branches of tf.cond
  Env globals_;                                // the module's variables, joined over passes
  std::map<Key, PythonKind> results_;
  std::set<Key> active_, done_;  // per pass
  bool changed_ = false;
  bool in_module_ = false;
  const Node* term_ = nullptr;  // the module's last statement
  PythonKind printed_;
  const Node* printed_at_ = nullptr;
};

void Inference::collect() {
  std::map<std::string, std::string> declared;  // Declare'd TF name -> the Python name
  for (const NodePtr& s : module_.list("body")) {
    if (!s->is(Kind::Assign) || !s->child("value")->is(Kind::Call)) continue;
    const Node& v = *s->child("value");
    std::optional<std::string> q = qualify_(call_func(v));
    if (!q || q->find("function.Declare") == std::string::npos || call_args(v).size() != 3)
      continue;
    Function f;
    std::vector<PythonKind> outs;
    for (int which = 1; which <= 2; ++which)
      for (const NodePtr& p : call_args(v)[static_cast<std::size_t>(which)]->list("elts")) {
        std::optional<std::string> dt = qualify_(*p->list("elts")[1]);
        (which == 1 ? f.params : outs).push_back(dt ? dtype_kind(*dt) : PythonKind::unknown());
      }
    f.result = outs.size() == 1 ? outs[0] : PythonKind::tuple(outs);
    std::string py = s->list("targets")[0]->text("id");
    declared[call_args(v)[0]->str_value] = py;
    functions_[py] = f;
  }
  for (const NodePtr& s : module_.list("body")) {
    if (!s->is(Kind::FunctionDef)) continue;
    Function f;
    f.def = s.get();
    for (const NodePtr& d : s->list("decorator_list")) {
      if (!d->is(Kind::Call)) continue;
      for (const NodePtr& t : call_args(*d)) {
        std::optional<std::string> dt = qualify_(*t);
        f.params.push_back(dt ? dtype_kind(*dt) : PythonKind::unknown());
      }
      if (const Node* k = find_keyword(*d, "func_name")) {
        auto it = declared.find(k->child("value")->str_value);
        if (it != declared.end()) {
          functions_[it->second].def = s.get();
          f = functions_[it->second];
        }
      }
    }
    functions_[s->text("name")] = f;
  }
  const Node* last = module_.list("body").empty() ? nullptr : module_.list("body").back().get();
  while (last && last->is(Kind::With) && !last->list("body").empty())
    last = last->list("body").back().get();
  term_ = last;
}

PrintedKind Inference::run() {
  collect();
  // The functions' results grow (in the join) from none until they are stable.
  for (int pass = 0;; ++pass) {
    changed_ = false;
    done_.clear();
    printed_ = PythonKind::none();
    in_module_ = true;
    block(module_.list("body"), Env{});
    if (!changed_) break;
    if (pass == 64 || results_.size() > 4096) {
      printed_ = PythonKind::unknown();
      break;
    }
  }
  PrintedKind out{printed_, std::nullopt};
  // The first part of the value whose kind is not decided, with where it is in the value.
  std::function<std::optional<std::string>(const PythonKind&, const std::string&)> undecided =
      [&](const PythonKind& k, const std::string& what) -> std::optional<std::string> {
    if (k.tag == PythonKind::Tag::Unknown) return "the kind of " + what + " cannot be inferred";
    if (k.tag == PythonKind::Tag::Scalar && std::popcount(k.scalars) > 1) {
      std::string kinds = scalar_names(k.scalars, " on one path and a ");
      if (std::popcount(k.scalars) > 2)
        kinds = "an " + scalar_names(k.scalars, ", a ") + " on different paths";
      else
        kinds = (k.scalars & PythonKind::Int ? "an " : "a ") + kinds + " on another";
      return what + " is " + kinds;
    }
    for (std::size_t i = 0; i < k.parts.size(); ++i)
      if (auto r = undecided(k.parts[i], "item " + std::to_string(i) + " of " + what)) return r;
    return std::nullopt;
  };
  if (auto why = undecided(printed_, "the printed value")) {
    const Node& at = printed_at_ ? *printed_at_ : module_;
    out.undecided = Diagnostic{
        Severity::Error,
        SourceLoc{at.span.line, at.span.col + 1},
        *why,
        {"Python prints an int, a float and a bool differently (2, 2.0, True) and the lowered "
         "program holds all three as reals, so the printed kind must be the same on every "
         "path: convert with float(...) or int(...)"}};
  }
  return out;
}

Flow Inference::block(const std::vector<NodePtr>& stmts, Env env) {
  Flow out;
  for (const NodePtr& s : stmts) {
    Flow f = statement(*s, std::move(env));
    out.returned = join(out.returned, f.returned);
    if (!f.fall) return out;
    env = std::move(*f.fall);
  }
  out.fall = std::move(env);
  return out;
}

Flow Inference::statement(const Node& s, Env env) {
  Flow out;
  switch (s.kind) {
    case Kind::Assign: {
      PythonKind k = expr(*s.child("value"), env);
      for (const NodePtr& t : s.list("targets"))
        if (!(t->is(Kind::Name) && functions_.count(t->text("id"))))  // not function.Declare
          bind(*t, k, env);
      break;
    }
    case Kind::AugAssign: {
      const Node& t = *s.child("target");
      PythonKind a = t.is(Kind::Name) ? name(t.text("id"), env) : PythonKind::unknown();
      PythonKind b = expr(*s.child("value"), env);
      bind(t, s.text("op") == "Div" ? (a.tag == PythonKind::Tag::None ? a : kFloat) : numeric(a, b),
           env);
      break;
    }
    case Kind::AnnAssign:
      // `x: float` without a value is an input of that kind; with one, Python ignores the
      // annotation.
      bind(*s.child("target"),
           s.child("value") ? expr(*s.child("value"), env) : annotation(s.child("annotation")),
           env);
      break;
    case Kind::If: {
      expr(*s.child("test"), env);
      Flow a = block(s.list("body"), env);
      Flow b = block(s.list("orelse"), env);
      out.returned = join(a.returned, b.returned);
      if (a.fall && b.fall)
        out.fall = join_envs(*a.fall, *b.fall);
      else if (a.fall || b.fall)
        out.fall = a.fall ? a.fall : b.fall;
      return out;
    }
    case Kind::While:
    case Kind::For:
      return loop(s, std::move(env));
    case Kind::With:
      for (const NodePtr& item : s.list("items"))
        if (const Node* v = item->child("optional_vars")) bind(*v, PythonKind::unknown(), env);
      return block(s.list("body"), std::move(env));
    case Kind::Return:
      out.returned = s.child("value") ? expr(*s.child("value"), env) : PythonKind::unknown();
      return out;
    case Kind::FunctionDef:
      // A def below the top level: a branch of tf.cond.
      if (auto it = functions_.find(s.text("name")); it == functions_.end() || it->second.def != &s)
        thunks_[s.text("name")] = &s;
      break;
    case Kind::Expr: {
      const Node* v = s.child("value");
      if (&s == term_) {
        if (v->is(Kind::Call) && call_func(*v).is(Kind::Name) &&
            call_func(*v).text("id") == "print" && call_args(*v).size() == 1)
          v = call_args(*v)[0].get();
        printed_ = expr(*v, env);
        printed_at_ = v;
      }
      break;
    }
    default:
      break;
  }
  out.fall = std::move(env);
  return out;
}

// A loop runs its body zero or more times: its variables' kinds are the join over any number of
// iterations, a fixpoint (a variable that is an int on entry and a float after one iteration is
// either after the loop).
Flow Inference::loop(const Node& s, Env env) {
  bool is_for = s.is(Kind::For);
  if (is_for)
    expr(*s.child("iter"), env);
  else
    expr(*s.child("test"), env);
  Flow out;
  for (int round = 0;; ++round) {
    Env inside = env;
    if (is_for) bind(*s.child("target"), kInt, inside);  // range yields ints
    if (!is_for) expr(*s.child("test"), inside);
    Flow f = block(s.list("body"), inside);
    out.returned = join(out.returned, f.returned);
    Env next = f.fall ? join_envs(env, *f.fall) : env;
    if (next == env) break;
    env = std::move(next);
    if (round == 64)
      for (auto& [x, k] : env)
        k = join(k, PythonKind::unknown());
  }
  Flow rest = block(s.list("orelse"), env);
  out.returned = join(out.returned, rest.returned);
  out.fall = rest.fall;
  return out;
}

void Inference::bind(const Node& target, const PythonKind& k, Env& env) {
  if (target.is(Kind::Name)) {
    env[target.text("id")] = k;
    if (in_module_) {
      PythonKind& g = globals_[target.text("id")];
      g = join(g, k);
    }
    return;
  }
  if (target.is(Kind::Tuple) || target.is(Kind::List)) {
    const auto& elts = target.list("elts");
    bool parts = (k.tag == PythonKind::Tag::Tuple || k.tag == PythonKind::Tag::List) &&
                 k.parts.size() == elts.size();
    for (std::size_t i = 0; i < elts.size(); ++i)
      bind(*elts[i],
           parts                            ? k.parts[i]
           : k.tag == PythonKind::Tag::None ? k
                                            : PythonKind::unknown(),
           env);
  }
}

PythonKind Inference::annotation(const Node* a) {
  if (!a) return kFloat;
  if (a->is(Kind::Name)) {
    const std::string& id = a->text("id");
    if (id == "int") return kInt;
    if (id == "bool") return kBool;
    if (id == "float") return kFloat;
  }
  if (a->is(Kind::Subscript)) {
    const Node& idx = *a->child("slice");
    std::vector<PythonKind> parts;
    if (idx.is(Kind::Tuple))
      for (const NodePtr& p : idx.list("elts"))
        parts.push_back(annotation(p.get()));
    else
      parts.push_back(annotation(&idx));
    return PythonKind::tuple(parts);
  }
  return PythonKind::unknown();
}

PythonKind Inference::name(const std::string& id, Env& env) {
  if (auto it = env.find(id); it != env.end()) return it->second;
  if (auto it = globals_.find(id); it != globals_.end()) return it->second;
  // A name nothing binds is an input (--env): a real, a float unless annotated.
  return kFloat;
}

PythonKind Inference::expr(const Node& e, Env& env) {
  switch (e.kind) {
    case Kind::Name:
      return name(e.text("id"), env);
    case Kind::Constant:
      switch (e.constant_type) {
        case ConstantType::Int:
          return kInt;
        case ConstantType::Float:
          return kFloat;
        case ConstantType::Bool:
          return kBool;
        default:
          return PythonKind::unknown();
      }
    case Kind::BinOp: {
      PythonKind a = expr(*e.child("left"), env);
      const Node& r = *e.child("right");
      PythonKind b = expr(r, env);
      const std::string& op = e.text("op");
      // True division is always a float (7 / 7 is 1.0).
      if (op == "Div") return arithmetic(a, b, [](bool, bool) { return PythonKind::Float; });
      if (op == "Pow") {
        // An int to a non-negative int power is an int; to a negative one a float (2 ** -1
        // is 0.5); a float to any power a float.
        bool negative = r.is(Kind::UnaryOp) && r.text("op") == "USub";
        return arithmetic(a, b, [&](bool fa, bool fb) -> unsigned {
          return fa || fb || negative ? PythonKind::Float : PythonKind::Int;
        });
      }
      return numeric(a, b);
    }
    case Kind::UnaryOp: {
      PythonKind a = expr(*e.child("operand"), env);
      if (e.text("op") == "Not") return kBool;
      return numeric(a);
    }
    case Kind::Compare:
      expr(*e.child("left"), env);
      for (const NodePtr& c : e.list("comparators"))
        expr(*c, env);
      return kBool;
    case Kind::BoolOp: {
      // `a and b` is a or b itself (0 and 2.5 is 0): the join of the operands.
      PythonKind k;
      for (const NodePtr& v : e.list("values"))
        k = join(k, expr(*v, env));
      return k;
    }
    case Kind::IfExp:
      expr(*e.child("test"), env);
      return join(expr(*e.child("body"), env), expr(*e.child("orelse"), env));
    case Kind::Tuple: {
      std::vector<PythonKind> parts;
      for (const NodePtr& x : e.list("elts"))
        parts.push_back(expr(*x, env));
      return PythonKind::tuple(parts);
    }
    case Kind::Subscript: {
      PythonKind v = expr(*e.child("value"), env);
      const Node& index = *e.child("slice");
      bool negative = index.is(Kind::UnaryOp) && index.text("op") == "USub";
      const Node& k = negative ? *index.child("operand") : index;
      if (v.tag == PythonKind::Tag::None) return v;
      if ((v.tag != PythonKind::Tag::Tuple && v.tag != PythonKind::Tag::List) ||
          !k.is(Kind::Constant) || k.constant_type != ConstantType::Int)
        return PythonKind::unknown();
      long long n = static_cast<long long>(v.parts.size());
      long long i = std::stoll(k.text("value"));
      if (negative) i = n - i;
      if (i < 0 || i >= n) return PythonKind::unknown();
      return v.parts[static_cast<std::size_t>(i)];
    }
    case Kind::Attribute: {
      std::optional<std::string> q = qualify_(e);
      if (q && (*q == "math.pi" || *q == "math.e" || *q == "numpy.pi" || *q == "numpy.e"))
        return kFloat;
      return PythonKind::unknown();
    }
    case Kind::Call:
      return call(e, env);
    default:
      return PythonKind::unknown();
  }
}

PythonKind Inference::call(const Node& e, Env& env) {
  const Node& f = call_func(e);
  if (f.is(Kind::Name) && !env.count(f.text("id"))) {
    const std::string& id = f.text("id");
    if (auto t = thunks_.find(id); t != thunks_.end()) return branch(t->second, env);
    if (auto it = functions_.find(id); it != functions_.end()) {
      std::vector<PythonKind> args;
      for (const NodePtr& a : call_args(e))
        args.push_back(expr(*a, env));
      return user_call(it->second, args);
    }
  }
  // sess.run(T): T's value; sess.run([A, B]) a list, sess.run((A, B)) a tuple.
  if (f.is(Kind::Attribute) && f.text("attr") == "run" && call_args(e).size() == 1) {
    const Node& fetch = *call_args(e)[0];
    if (!fetch.is(Kind::List)) return expr(fetch, env);
    std::vector<PythonKind> parts;
    for (const NodePtr& x : fetch.list("elts"))
      parts.push_back(expr(*x, env));
    return PythonKind::list(parts);
  }
  std::optional<std::string> q = qualify_(f);
  if (!q) return PythonKind::unknown();
  return library_call(e, library_name(*q), env);
}

PythonKind Inference::user_call(const Function& f, std::vector<PythonKind> args) {
  if (!f.params.empty() && f.params.size() == args.size()) args = f.params;
  for (const PythonKind& a : args)
    if (a.tag == PythonKind::Tag::None) return a;  // an argument that never has a value
  if (f.result) return *f.result;
  if (!f.def) return PythonKind::unknown();
  std::string kinds;
  for (const PythonKind& a : args)
    kinds += to_string(a) + ";";
  Key key{f.def, kinds};
  if (active_.count(key) || done_.count(key)) return results_[key];
  active_.insert(key);
  bool module = in_module_;
  in_module_ = false;
  auto thunks = thunks_;
  Env local;
  const auto& params = f.def->child("args")->list("args");
  for (std::size_t i = 0; i < params.size() && i < args.size(); ++i)
    local[params[i]->text("arg")] = args[i];
  Flow body = block(f.def->list("body"), local);
  thunks_ = std::move(thunks);
  in_module_ = module;
  active_.erase(key);
  done_.insert(key);
  PythonKind& r = results_[key];
  PythonKind joined = join(r, body.returned);
  if (!(joined == r)) {
    r = joined;
    changed_ = true;
  }
  return r;
}

// A branch of tf.cond: a lambda's body, or a nested def's returned value.
PythonKind Inference::branch(const Node* fn, Env& env) {
  if (!fn) return PythonKind::unknown();
  if (fn->is(Kind::Lambda)) return expr(*fn->child("body"), env);
  if (fn->is(Kind::Name)) {
    if (auto t = thunks_.find(fn->text("id")); t != thunks_.end()) return branch(t->second, env);
    auto f = functions_.find(fn->text("id"));
    return f == functions_.end() ? PythonKind::unknown() : user_call(f->second, {});
  }
  if (fn->is(Kind::FunctionDef)) return block(fn->list("body"), env).returned;
  return PythonKind::unknown();
}

PythonKind Inference::library_call(const Node& e, const std::string& q, Env& env) {
  std::vector<PythonKind> args;
  for (const NodePtr& a : call_args(e))
    args.push_back(a->is(Kind::Lambda) ? PythonKind::unknown() : expr(*a, env));
  auto arg = [&](std::size_t i) { return i < args.size() ? args[i] : PythonKind::unknown(); };
  auto dtype = [&](std::size_t position) -> std::optional<PythonKind> {
    const Node* dt = call_args(e).size() > position ? call_args(e)[position].get() : nullptr;
    if (const Node* k = find_keyword(e, "dtype")) dt = k->child("value");
    std::optional<std::string> t = dt ? qualify_(*dt) : std::nullopt;
    if (!t) return std::nullopt;
    return dtype_kind(*t);
  };
  // The operators of the table (is_operator_function) are floats too, but for the floors
  // below: Python 3's math.floor is an int, and tf.floor keeps its argument's kind.
  static const std::set<std::string> floats = {
      "float", "tf.to_float", "tf.to_double", "math.fabs",
      // TensorFlow's divisions of ints are true divisions, as the lowering computes them.
      "tf.divide", "tf.div", "tf.truediv", "tf.realdiv"};
  static const std::set<std::string> bools = {
      "tf.less",      "tf.less_equal",  "tf.greater",     "tf.greater_equal", "tf.equal",
      "tf.not_equal", "tf.logical_not", "tf.logical_and", "tf.logical_or"};
  static const std::set<std::string> arithmetic = {"tf.add",      "tf.subtract", "tf.sub",
                                                   "tf.multiply", "tf.mul",      "tf.mod",
                                                   "tf.floormod", "tf.floordiv", "tf.floor_div"};
  static const std::set<std::string> either = {"max", "min", "tf.maximum", "tf.minimum"};
  if (floats.count(q)) return kFloat;
  if (bools.count(q)) return kBool;
  if (q == "int" || q == "math.floor") return kInt;  // Python 3's math.floor is an int
  if (arithmetic.count(q)) return numeric(arg(0), arg(1));
  if (either.count(q)) return join(arg(0), arg(1));  // max returns one of its arguments
  if (q == "abs" || q == "tf.abs" || q == "numpy.abs" || q == "tf.negative") return numeric(arg(0));
  if (q == "tf.square") return numeric(arg(0), arg(0));
  if (q == "tf.floor") return arg(0);
  if (is_operator_function(q)) return kFloat;
  if (q == "tf.cast") return dtype(1).value_or(PythonKind::unknown());
  if (q == "tf.placeholder") return dtype(0).value_or(PythonKind::unknown());
  if (q == "tf.constant" || q == "tf.identity" || q == "tf.convert_to_tensor")
    return dtype(1).value_or(arg(0));
  if (q == "tf.gradients") {
    // The gradients are floats, one per x (a list).
    std::size_t n = call_args(e).size() > 1 && call_args(e)[1]->is(Kind::List)
                        ? call_args(e)[1]->list("elts").size()
                        : 1;
    return PythonKind::list(std::vector<PythonKind>(n, kFloat));
  }
  if (q == "tf.cond") {
    const Node* branches[2] = {call_args(e).size() > 1 ? call_args(e)[1].get() : nullptr,
                               call_args(e).size() > 2 ? call_args(e)[2].get() : nullptr};
    for (const NodePtr& k : call_keywords(e)) {
      const std::string& kw = k->text("arg");
      if (kw == "true_fn" || kw == "fn1") branches[0] = k->child("value");
      if (kw == "false_fn" || kw == "fn2") branches[1] = k->child("value");
    }
    return join(branch(branches[0], env), branch(branches[1], env));
  }
  return PythonKind::unknown();
}

}  // namespace

PrintedKind infer_printed_kind(
    const Node& module, const std::function<std::optional<std::string>(const Node&)>& qualify) {
  return Inference(module, qualify).run();
}

}  // namespace adlang::py
