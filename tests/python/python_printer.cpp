#include "python_printer.hpp"

#include <map>
#include <stdexcept>

namespace adlang::test {

namespace {

std::string annotation(Type t) {
  if (t.is_pair()) return "tuple[" + annotation(t.first()) + ", " + annotation(t.second()) + "]";
  if (t.is_real()) return "float";
  return "None";
}

// Component i of an n-vector (real^n is left-nested pairs).
std::string component(const std::string& v, std::size_t n, std::size_t i) {
  if (n <= 1) return v;
  if (i == n - 1) return v + "[1]";
  return component(v + "[0]", n - 1, i);
}

struct Function {
  std::string python;
  std::vector<std::string> captured;
};

class Printer {
 public:
  std::vector<std::string> defs;

  std::string fresh(const std::string& prefix) { return prefix + std::to_string(++counter_); }

  void bind(Name x, const std::string& py) { vars_[x.str()].push_back(py); }
  void unbind(Name x) { vars_[x.str()].pop_back(); }

  std::string expr(const Term& t, std::vector<std::string>& out, const std::string& ind) {
    switch (t.kind()) {
      case TermKind::Var:
        return vars_.at(t.as<Var>()->name.str()).back();
      case TermKind::Literal:
        return "(" + t.as<Literal>()->text + ")";
      case TermKind::Add: {
        std::string a = expr(t.as<Add>()->lhs, out, ind);
        return "(" + a + " + " + expr(t.as<Add>()->rhs, out, ind) + ")";
      }
      case TermKind::Op:
        return op(*t.as<OpApp>(), out, ind);
      case TermKind::Let: {
        const Let* l = t.as<Let>();
        std::string py = fresh("v");
        out.push_back(ind + py + " = " + expr(l->bound, out, ind));
        types_[py] = l->bound.type();
        bind(l->var, py);
        std::string r = expr(l->body, out, ind);
        unbind(l->var);
        return r;
      }
      case TermKind::Unit:
        return "()";
      case TermKind::Pair: {
        std::string a = expr(t.as<Pair>()->first, out, ind);
        return "(" + a + ", " + expr(t.as<Pair>()->second, out, ind) + ")";
      }
      case TermKind::Fst:
        return expr(t.as<Fst>()->arg, out, ind) + "[0]";
      case TermKind::Snd:
        return expr(t.as<Snd>()->arg, out, ind) + "[1]";
      case TermKind::If:
        return conditional(*t.as<If>(), out, ind);
      case TermKind::LetRec:
        return letrec(*t.as<LetRec>(), out, ind);
      case TermKind::Call: {
        const Call* c = t.as<Call>();
        // A copy: printing the argument may push a letrec's function of the same name, and
        // the vector it lives in may move.
        const Function f = funs_.at(c->fun.name.str()).back();
        std::string args = expr(c->arg, out, ind);
        for (const std::string& v : f.captured)
          args += ", " + v;
        return f.python + "(" + args + ")";
      }
      case TermKind::Rd:
        throw std::invalid_argument("rd has no plain-Python form");
    }
    throw std::logic_error("unknown term kind");
  }

 private:
  // The two components of a pair-typed operand, evaluated once, left to right.
  std::pair<std::string, std::string> components(const Term& arg, std::vector<std::string>& out,
                                                 const std::string& ind) {
    if (const Pair* p = arg.as<Pair>()) {
      std::string a = expr(p->first, out, ind);
      return {a, expr(p->second, out, ind)};
    }
    std::string v = fresh("v");
    out.push_back(ind + v + " = " + expr(arg, out, ind));
    return {v + "[0]", v + "[1]"};
  }

  std::string named(const std::string& e, std::vector<std::string>& out, const std::string& ind) {
    std::string v = fresh("v");
    out.push_back(ind + v + " = " + e);
    return v;
  }

  std::string op(const OpApp& o, std::vector<std::string>& out, const std::string& ind) {
    static const std::map<OpKind, std::string> unary = {
        {OpKind::Sin, "math.sin"},      {OpKind::Cos, "math.cos"},   {OpKind::Exp, "math.exp"},
        {OpKind::Log, "math.log"},      {OpKind::Sqrt, "math.sqrt"}, {OpKind::Tanh, "math.tanh"},
        {OpKind::Sigmoid, "tf.sigmoid"}};
    switch (o.op.kind()) {
      case OpKind::Neg:
        return "(-" + expr(o.arg, out, ind) + ")";
      case OpKind::Add:
      case OpKind::Sub:
      case OpKind::Mul:
      case OpKind::Div: {
        auto [a, b] = components(o.arg, out, ind);
        const char* sym = o.op.kind() == OpKind::Add   ? "+"
                          : o.op.kind() == OpKind::Sub ? "-"
                          : o.op.kind() == OpKind::Mul ? "*"
                                                       : "/";
        return "(" + a + " " + sym + " " + b + ")";
      }
      case OpKind::Dot:
      case OpKind::Scale: {
        auto [a, b] = components(o.arg, out, ind);
        std::size_t n = o.op.vector_size();
        std::string u = named(a, out, ind), v = named(b, out, ind);
        if (o.op.kind() == OpKind::Dot) {
          // dot_n(u, v) = ((u_1 v_1 + u_2 v_2) + ...), in the evaluator's order.
          std::string s = "(" + component(u, n, 0) + " * " + component(v, n, 0) + ")";
          for (std::size_t i = 1; i < n; ++i)
            s = "(" + s + " + " + component(u, n, i) + " * " + component(v, n, i) + ")";
          return s;
        }
        std::string s = "(" + u + " * " + component(v, n, 0) + ")";
        for (std::size_t i = 1; i < n; ++i)
          s = "(" + s + ", " + u + " * " + component(v, n, i) + ")";
        return s;
      }
      default: {
        auto it = unary.find(o.op.kind());
        std::string name = it != unary.end() ? it->second : "math." + o.op.name();
        return name + "(" + expr(o.arg, out, ind) + ")";
      }
    }
  }

  std::string conditional(const If& i, std::vector<std::string>& out, const std::string& ind) {
    std::string guard;
    if (const BoolConst* c = i.guard.as<BoolConst>()) {
      guard = c->value ? "True" : "False";
    } else {
      const PredApp* p = i.guard.as<PredApp>();
      auto [a, b] = components(p->arg, out, ind);
      std::string sym = p->pred.kind() == PredKind::Eq ? "==" : p->pred.symbol();
      guard = a + " " + sym + " " + b;
    }
    std::string r = fresh("r");
    out.push_back(ind + "if " + guard + ":");
    std::string inner = ind + "    ";
    std::string a = expr(i.then_branch, out, inner);
    out.push_back(inner + r + " = " + a);
    out.push_back(ind + "else:");
    std::string b = expr(i.else_branch, out, inner);
    out.push_back(inner + r + " = " + b);
    return r;
  }

  std::string letrec(const LetRec& l, std::vector<std::string>& out, const std::string& ind) {
    // Every variable in scope is a further parameter of each function of the group.
    std::vector<std::pair<std::string, Type>> scope;
    for (const auto& [ir, pys] : vars_)
      if (!pys.empty()) scope.emplace_back(pys.back(), types_.at(pys.back()));
    for (const FunDef& d : l.defs) {
      Function f{fresh("f"), {}};
      for (const auto& [py, t] : scope)
        f.captured.push_back(py);
      funs_[d.name.str()].push_back(f);
    }
    for (const FunDef& d : l.defs) {
      const Function& f = funs_.at(d.name.str()).back();
      std::string param = fresh("p");
      types_[param] = d.param_type;
      std::string header = "def " + f.python + "(" + param + ": " + annotation(d.param_type);
      for (const auto& [py, t] : scope)
        header += ", " + py + ": " + annotation(t);
      header += ") -> " + annotation(d.result_type) + ":";
      // The body is printed with only the parameters and captured variables in scope.
      auto saved = vars_;
      bind(d.param, param);
      std::vector<std::string> body;
      std::string r = expr(d.body, body, "    ");
      vars_ = saved;
      std::string text = header + "\n";
      for (const std::string& line : body)
        text += line + "\n";
      text += "    return " + r + "\n";
      defs.push_back(text);
    }
    std::string r = expr(l.body, out, ind);
    for (const FunDef& d : l.defs)
      funs_[d.name.str()].pop_back();
    return r;
  }

 public:
  std::map<std::string, Type> types_;  // of every Python variable

 private:
  std::map<std::string, std::vector<std::string>> vars_;
  std::map<std::string, std::vector<Function>> funs_;
  unsigned counter_ = 0;
};

}  // namespace

PythonProgram print_python(const Term& term, const std::vector<TypedName>& inputs) {
  Printer p;
  PythonProgram prog;
  std::string header = "import math\nimport tensorflow as tf\n";
  for (const TypedName& in : inputs) {
    std::string py = p.fresh("i");
    p.bind(in.name, py);
    p.types_[py] = in.type;
    prog.input_names.push_back(py);
    header += py + ": " + annotation(in.type) + "\n";
  }
  std::vector<std::string> main;
  std::string r = p.expr(term, main, "");
  prog.text = header;
  for (const std::string& d : p.defs)
    prog.text += d;
  for (const std::string& line : main)
    prog.text += line + "\n";
  prog.text += "print(" + r + ")\n";
  return prog;
}

}  // namespace adlang::test
