#include "conform/python_export.hpp"

#include <map>
#include <sstream>
#include <unordered_map>

#include "conform/rd_elimination.hpp"
#include "lang/diagnostics.hpp"
#include "lang/op.hpp"
#include "lang/operators.hpp"

namespace adlang::conform {

const char* to_string(ExportTarget t) {
  return t == ExportTarget::Python ? "python" : "torch";
}

namespace {

// The module's fixed part: values to and from the adapter protocol's JSON, vectors, and the
// predicates. `_real` makes a real of the target from a Python float.
const char* const kCommonPrelude = R"PY(
class Undefined(Exception):
    """The paper's bottom, raised where the exported program's meaning is undefined."""


def _flat(v):
    return [v] if not isinstance(v, tuple) else [s for part in v for s in _flat(part)]


def _rebuild(shape, scalars):
    """The value shaped as `shape` with the scalars of the list `scalars`, in order."""
    if not isinstance(shape, tuple):
        return scalars.pop(0)
    if len(shape) == 0:
        return ()
    first = _rebuild(shape[0], scalars)
    return (first, _rebuild(shape[1], scalars))


def _dot(u, v):
    us, vs = _flat(u), _flat(v)
    total = us[0] * vs[0]
    for p, q in zip(us[1:], vs[1:]):
        total = total + p * q
    return total


def _scale(c, v):
    return _rebuild(v, [c * s for s in _flat(v)])


def _json_real(x):
    x = float(x)
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return x


def _to_json(v):
    if isinstance(v, tuple):
        return [_to_json(part) for part in v]
    return _json_real(v)


def _from_json(j):
    if isinstance(j, list):
        if len(j) == 0:
            return ()
        return (_from_json(j[0]), _from_json(j[1]))
    return _real(float(j))
)PY";

const char* const kPlainPrelude = R"PY(
import math


def _real(x):
    return float(x)
)PY";

const char* const kTorchPrelude = R"PY(
import torch


def _real(x):
    return torch.tensor(float(x), dtype=torch.float64)


def _truth(b):
    return bool(b)


def _point(v):
    """x in M.rd_L(x. N): a fresh node per real of L, so that only N's uses of x count."""
    if isinstance(v, tuple):
        return tuple(_point(part) for part in v)
    return v.clone() if v.requires_grad else v.detach().clone().requires_grad_(True)


def _rd(out, x, w, create_graph):
    """w.rd(x. out): torch.autograd.grad of out at x along the cotangent w."""
    xs = _flat(x)
    pairs = [(o, c) for o, c in zip(_flat(out), _flat(w)) if o.requires_grad]
    grads = [None] * len(xs)
    if pairs and xs:
        grads = list(torch.autograd.grad([o for o, _ in pairs], xs,
                                         grad_outputs=[c for _, c in pairs],
                                         create_graph=create_graph, allow_unused=True))
    zero = torch.zeros((), dtype=torch.float64)
    return _rebuild(x, [zero if g is None else g for g in grads])
)PY";

const char* const kPlainTruth = R"PY(

def _truth(b):
    return bool(b)
)PY";

const char* const kMainBlock = R"PY(

if __name__ == "__main__":
    import json
    import sys
    _args = [_from_json(a) for a in json.loads(sys.argv[1] if len(sys.argv) > 1 else "[]")]
    print(json.dumps(_to_json(main(*_args))))
)PY";

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// A Python identifier for an adlang name: `'` becomes _q, other characters _.
std::string python_stem(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '\'') {
      out += "_q";
    } else {
      out += is_identifier_char(c) ? c : '_';
    }
  }
  return out;
}

// The Python form of a literal: a float for plain Python (3 is written 3.0), _real(...) for
// torch.
std::string literal_text(const std::string& text, ExportTarget target) {
  std::string t = text;
  if (t.find_first_of(".eE") == std::string::npos) t += ".0";
  return target == ExportTarget::Torch ? "_real(" + t + ")" : t;
}

// The predicate's Python: a comparison, or in strict mode a check that raises on a tie.
std::string predicate_function(Pred p, PredicateMode mode) {
  // Strict (Sec. 2): a predicate has open pre-images, so <= is < and >= is > where the sides
  // differ, and every comparison is undefined where they are equal.
  const char* symbol = p.symbol();
  std::string strict_symbol = p.kind() == PredKind::Le   ? "<"
                              : p.kind() == PredKind::Ge ? ">"
                              : p.kind() == PredKind::Eq ? "=="
                                                         : symbol;
  std::string total_symbol = p.kind() == PredKind::Eq ? "==" : symbol;
  std::ostringstream s;
  s << "\n\ndef _" << p.name() << "(x):\n    a, b = x\n";
  if (mode == PredicateMode::Strict) {
    s << "    if _truth(a == b):\n        raise Undefined(\"" << p.name()
      << ": both sides are equal (a strict predicate is undefined on its boundary)\")\n";
    s << "    return _truth(a " << strict_symbol << " b)\n";
  } else {
    s << "    return _truth(a " << total_symbol << " b)\n";
  }
  return s.str();
}

// The operator's Python function, from its row of the table.
std::string operator_function(const OpDefinition& d, ExportTarget target) {
  std::ostringstream s;
  s << "\n\ndef op_" << d.name << "(x):\n";
  switch (d.arg) {
    case OpShape::Real:
      break;
    case OpShape::RealPair:
      s << "    a, b = x\n";
      break;
    case OpShape::VectorPair:
      s << "    u, v = x\n";
      break;
    case OpShape::RealVector:
      s << "    c, v = x\n";
      break;
    case OpShape::Vector:
      s << "    v = x\n";
      break;
  }
  s << "    return " << (target == ExportTarget::Torch ? d.python.torch : d.python.plain) << "\n";
  return s.str();
}

// Emits one Python function's statements: each term becomes statements that bind fresh
// variables, and an expression for its value.
class Emitter {
 public:
  Emitter(ExportTarget target, std::unordered_map<std::uint32_t, std::string>& functions,
          bool in_function)
      : target_(target), functions_(functions), in_function_(in_function) {}

  std::string fresh(const std::string& base) {
    std::string stem = python_stem(base);
    unsigned n = ++used_[stem];
    return "v_" + stem + "_" + std::to_string(n);
  }

  void bind(Name x, const std::string& py) { scope_.push_back({x, py}); }
  void unbind() { scope_.pop_back(); }

  std::string lookup(Name x) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->first == x) return it->second;
    throw InternalError("export: unbound variable " + x.str());
  }

  void line(const std::string& text) { lines_ << std::string(indent_ * 4, ' ') << text << "\n"; }
  std::string lines() const { return lines_.str(); }

  // Statements computing t; returns a Python expression (a name or a constant) for its value.
  std::string term(const Term& t) {
    switch (t.kind()) {
      case TermKind::Var:
        return lookup(t.as<Var>()->name);
      case TermKind::Literal:
        return literal_text(t.as<Literal>()->text, target_);
      case TermKind::Unit:
        return "()";
      case TermKind::Add: {
        const auto* a = t.as<Add>();
        std::string l = term(a->lhs);
        std::string r = term(a->rhs);
        return assign("s", l + " + " + r);
      }
      case TermKind::Op: {
        const auto* o = t.as<OpApp>();
        std::string arg = term(o->arg);
        return assign("o", "op_" + std::string(o->op.definition().name) + "(" + arg + ")");
      }
      case TermKind::Let: {
        const auto* l = t.as<Let>();
        std::string bound = term(l->bound);
        std::string py = fresh(l->var.str());
        line(py + " = " + bound);
        bind(l->var, py);
        std::string body = term(l->body);
        unbind();
        return body;
      }
      case TermKind::Pair: {
        const auto* p = t.as<Pair>();
        std::string a = term(p->first);
        std::string b = term(p->second);
        return "(" + a + ", " + b + ")";
      }
      case TermKind::Fst:
        return assign("p", term(t.as<Fst>()->arg) + "[0]");
      case TermKind::Snd:
        return assign("p", term(t.as<Snd>()->arg) + "[1]");
      case TermKind::If: {
        const auto* i = t.as<If>();
        std::string guard = boolean(i->guard);
        std::string result = fresh("if");
        line("if " + guard + ":");
        ++indent_;
        line(result + " = " + term(i->then_branch));
        --indent_;
        line("else:");
        ++indent_;
        line(result + " = " + term(i->else_branch));
        --indent_;
        return result;
      }
      case TermKind::LetRec:
        // Its functions are module-level (collected before); only the body runs here.
        return term(t.as<LetRec>()->body);
      case TermKind::Call: {
        const auto* c = t.as<Call>();
        std::string arg = term(c->arg);
        return assign("c", function_name(c->fun.id) + "(" + arg + ")");
      }
      case TermKind::Rd:
        return rd(*t.as<Rd>());
    }
    throw InternalError("export: unknown term kind");
  }

  std::string boolean(const BoolTerm& b) {
    if (const auto* c = b.as<BoolConst>()) return c->value ? "True" : "False";
    const auto* p = b.as<PredApp>();
    std::string arg = term(p->arg);
    return assign("g", "_" + p->pred.name() + "(" + arg + ")");
  }

 private:
  std::string assign(const std::string& base, const std::string& expr) {
    std::string py = fresh(base);
    line(py + " = " + expr);
    return py;
  }

  std::string function_name(FunId id) const {
    auto it = functions_.find(static_cast<std::uint32_t>(id));
    if (it == functions_.end()) throw InternalError("export: a call of an unknown function");
    return it->second;
  }

  // M.rd_L(x:T. N) by torch.autograd.grad (the plain target has no rd left).
  std::string rd(const Rd& r) {
    if (target_ != ExportTarget::Torch)
      throw InternalError("export: rd left in a plain-Python program");
    std::string w = assign("w", term(r.cotangent));
    std::string point = assign("l", term(r.point));
    std::string x = assign(r.var.str(), "_point(" + point + ")");
    bind(r.var, x);
    ++rd_depth_;
    std::string out = term(r.body);
    --rd_depth_;
    unbind();
    bool create_graph = in_function_ || rd_depth_ > 0;
    return assign(
        "rd", "_rd(" + out + ", " + x + ", " + w + ", " + (create_graph ? "True" : "False") + ")");
  }

  ExportTarget target_;
  std::unordered_map<std::uint32_t, std::string>& functions_;
  bool in_function_;
  unsigned rd_depth_ = 0;
  unsigned indent_ = 1;
  std::vector<std::pair<Name, std::string>> scope_;
  std::map<std::string, unsigned> used_;
  std::ostringstream lines_;
};

// Every function definition in t, in order of appearance.
void collect_functions(const Term& t, std::vector<const FunDef*>& out) {
  switch (t.kind()) {
    case TermKind::Var:
    case TermKind::Literal:
    case TermKind::Unit:
      return;
    case TermKind::Add:
      collect_functions(t.as<Add>()->lhs, out);
      collect_functions(t.as<Add>()->rhs, out);
      return;
    case TermKind::Op:
      collect_functions(t.as<OpApp>()->arg, out);
      return;
    case TermKind::Let:
      collect_functions(t.as<Let>()->bound, out);
      collect_functions(t.as<Let>()->body, out);
      return;
    case TermKind::Pair:
      collect_functions(t.as<Pair>()->first, out);
      collect_functions(t.as<Pair>()->second, out);
      return;
    case TermKind::Fst:
      collect_functions(t.as<Fst>()->arg, out);
      return;
    case TermKind::Snd:
      collect_functions(t.as<Snd>()->arg, out);
      return;
    case TermKind::If: {
      const auto* i = t.as<If>();
      if (const auto* p = i->guard.as<PredApp>()) collect_functions(p->arg, out);
      collect_functions(i->then_branch, out);
      collect_functions(i->else_branch, out);
      return;
    }
    case TermKind::LetRec:
      for (const FunDef& d : t.as<LetRec>()->defs) {
        out.push_back(&d);
        collect_functions(d.body, out);
      }
      collect_functions(t.as<LetRec>()->body, out);
      return;
    case TermKind::Call:
      collect_functions(t.as<Call>()->arg, out);
      return;
    case TermKind::Rd:
      collect_functions(t.as<Rd>()->cotangent, out);
      collect_functions(t.as<Rd>()->point, out);
      collect_functions(t.as<Rd>()->body, out);
      return;
  }
}

}  // namespace

std::string export_python(const std::vector<ExportEntry>& entries, const ExportOptions& options,
                          NameSupply& names) {
  std::vector<ExportEntry> prepared = entries;
  if (options.target == ExportTarget::Python) {
    for (ExportEntry& e : prepared)
      e.term = eliminate_rd(e.term, names, options.max_derivative_nodes);
  }
  std::vector<const FunDef*> defs;
  for (const ExportEntry& e : prepared)
    collect_functions(e.term, defs);
  std::unordered_map<std::uint32_t, std::string> functions;
  for (const FunDef* d : defs) {
    if (d->id == FunId::Unresolved) throw InternalError("export: an unresolved function");
    functions[static_cast<std::uint32_t>(d->id)] =
        "f_" + python_stem(d->name.str()) + "_" + std::to_string(static_cast<std::uint32_t>(d->id));
  }

  std::ostringstream s;
  s << "# " << (options.origin.empty() ? "A program" : options.origin) << ", exported by adlang to "
    << (options.target == ExportTarget::Torch ? "PyTorch (float64 tensors)"
                                              : "plain Python (floats, no AD library)")
    << ".\n# Predicates: "
    << (options.predicates == PredicateMode::Strict
            ? "strict (a comparison of equal values raises Undefined)"
            : "total (the conventional comparisons)")
    << ".\n";
  s << (options.target == ExportTarget::Torch ? kTorchPrelude : kPlainPrelude);
  if (options.target == ExportTarget::Python) s << kPlainTruth;
  s << kCommonPrelude;
  for (const OpDefinition& d : kOpDefinitions)
    s << operator_function(d, options.target);
  for (Pred p : Pred::all())
    s << predicate_function(p, options.predicates);

  std::unordered_map<std::uint32_t, bool> emitted;
  for (const FunDef* d : defs) {
    std::uint32_t id = static_cast<std::uint32_t>(d->id);
    if (emitted[id]) continue;
    emitted[id] = true;
    Emitter e(options.target, functions, true);
    std::string param = e.fresh(d->param.str());
    e.bind(d->param, param);
    std::string result = e.term(d->body);
    s << "\n\n# " << d->name.str() << "(" << d->param.str() << ": " << to_string(d->param_type)
      << "): " << to_string(d->result_type) << "\n";
    s << "def " << functions[id] << "(" << param << "):\n"
      << e.lines() << "    return " << result << "\n";
  }
  for (const ExportEntry& entry : prepared) {
    Emitter e(options.target, functions, false);
    std::string params;
    std::string signature;
    for (const TypedName& p : entry.params) {
      std::string py = e.fresh(p.name.str());
      e.bind(p.name, py);
      params += (params.empty() ? "" : ", ") + py;
      signature += (signature.empty() ? "" : ", ") + p.name.str() + ": " + to_string(p.type);
    }
    std::string result = e.term(entry.term);
    s << "\n\n# " << entry.name << "(" << signature << "): " << to_string(entry.term.type())
      << "\n";
    s << "def " << entry.name << "(" << params << "):\n"
      << e.lines() << "    return " << result << "\n";
  }
  s << kMainBlock;
  return s.str();
}

ExportEntry gradient_entry(const Term& program, const std::vector<TypedName>& inputs,
                           std::size_t wrt, NameSupply& names) {
  const TypedName& x = inputs.at(wrt);
  Name w = names.fresh("w");
  Type u = program.type();
  ExportEntry e;
  e.name = "gradient";
  e.params.push_back(TypedName{w, u});
  e.params.insert(e.params.end(), inputs.begin(), inputs.end());
  e.term = mk::rd(mk::var(w, u), mk::var(x.name, x.type), x.name, x.type, program);
  return e;
}

}  // namespace adlang::conform
