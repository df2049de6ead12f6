#include "ad/linear_reverse_deriv.hpp"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/free_vars.hpp"
#include "lang/reverse_template.hpp"
#include "lang/term_visitor.hpp"
#include "lang/vector_space.hpp"
#include "lang/verifier.hpp"
#include "support/resource_budget.hpp"
#include "support/stack.hpp"

namespace adlang {

namespace {

constexpr int kNone = -1;

// The adjoint of a variable (or of one component of it), accumulated before it is built: for
// a real, its contributions (summed in order); for a product, the adjoints of its components,
// created only when something reaches them.
struct AdjNode {
  std::vector<Term> whole;
  int child[2] = {kNone, kNone};
};

// What a subterm of C evaluates to, statically: a variable or literal (an atom), *, or a pair
// of shapes. Projections of pairs and lets of atoms resolve here, at no cost in the output.
struct Shape {
  enum Kind { Atom, Pair, Unit } kind = Atom;
  Term atom;                     // Atom: a variable or a literal
  int adj = kNone;               // Atom: the adjoint node (kNone: a constant)
  int part[2] = {kNone, kNone};  // Pair: the component shapes
  int proj[2] = {kNone, kNone};  // Atom of product type: shapes of fst/snd (memo)
  bool live = false;             // an adjoint is reachable through this shape
  Term term;                     // Pair: its value term, once built
  int nodes = 1;                 // nodes of the value term
};

// One primal let, and what its adjoint sends back to the operands.
struct Primal {
  enum Kind { OpApp, Add, Projection, Tuple } kind;
  Type type;
  int adj = kNone;  // adjoint node of the bound variable (kNone: nothing depends on x)
  std::optional<Op> op;
  int arg = kNone, lhs = kNone, rhs = kNone;  // operand shapes
};

struct OutLet {
  Name name;
  Term bound;
  SourceLoc loc;
};

bool is_trace_term_node(const Term& t) {
  switch (t.kind()) {
    case TermKind::If:
    case TermKind::LetRec:
    case TermKind::Call:
    case TermKind::Rd:
      return false;
    case TermKind::Var:
    case TermKind::Literal:
    case TermKind::Add:
    case TermKind::Op:
    case TermKind::Let:
    case TermKind::Unit:
    case TermKind::Pair:
    case TermKind::Fst:
    case TermKind::Snd:
      return true;
  }
  return true;
}

bool is_zero_literal(const Term& t) {
  const Literal* l = t.as<Literal>();
  if (!l) return false;
  for (char ch : l->text) {
    if (ch == 'e' || ch == 'E') break;
    if (ch != '0' && ch != '.' && ch != '-') return false;
  }
  return true;
}

// Structurally zero: a zero literal, or a pair of structural zeros.
bool is_zero(const Term& t) {
  if (is_zero_literal(t)) return true;
  if (const Pair* p = t.as<Pair>()) return is_zero(p->first) && is_zero(p->second);
  return false;
}

class LinearR {
 public:
  LinearR(NameSupply& names, std::uint64_t max_steps) : names_(names), max_steps_(max_steps) {}

  std::uint64_t steps() const { return steps_; }

  Term run(const Term& w, const Term& v, Name x, Type t, const Term& c) {
    // let x':T = V in ...: the differentiation variable, with the root adjoint node.
    Name xv = names_.fresh(x.str());
    lets_.push_back(OutLet{xv, v, v.loc()});
    int x_adj = new_node();
    int x_shape = atom(mk::var(xv, t, v.loc()), x_adj);
    env_[x].push_back(x_shape);
    int result = normalize(c);
    env_[x].pop_back();

    // The reverse sweep: the cotangent to C's value, then each live primal let in reverse.
    distribute(w, result, c.loc());
    for (std::size_t i = primals_.size(); i-- > 0;) {
      step();
      const Primal p = primals_[i];
      if (p.adj == kNone || p.kind == Primal::Projection) continue;
      SourceLoc loc = primal_locs_[i];
      Term a = materialize(p.adj, p.type, loc);
      if (!a) continue;  // a zero adjoint: nothing to send
      switch (p.kind) {
        // z = D + E: the adjoint of z goes to both (d/dD (D + E) = d/dE (D + E) = 1)
        case Primal::Add: {
          bool both = shapes_[p.lhs].live && shapes_[p.rhs].live;
          Term wa = both ? variable(a, "a", loc) : a;
          distribute(wa, p.lhs, loc);
          distribute(wa, p.rhs, loc);
          break;
        }
        // z = op(D): W.op_r(D), the operator table's reverse template, goes to D
        case Primal::OpApp: {
          Term wa = variable(a, "a", loc);
          Term back = reverse_template(*p.op, value_term(p.arg, loc), wa, loc);
          distribute(back, p.arg, loc);
          break;
        }
        // z = <V1, ..., Vn>: the components of the adjoint go to the components
        case Primal::Tuple:
          distribute(a, p.arg, loc);
          break;
        case Primal::Projection:
          break;
      }
    }
    Term xbar = materialize(x_adj, t, v.loc());
    if (!xbar) xbar = make_zero(t, v.loc());
    // The output, built from the inside out (iteratively: it is a let chain).
    Term out = xbar;
    for (std::size_t i = lets_.size(); i-- > 0;)
      out = mk::let(lets_[i].name, lets_[i].bound.type(), lets_[i].bound, out, lets_[i].loc);
    return out;
  }

 private:
  NameSupply& names_;
  std::uint64_t max_steps_;
  std::uint64_t steps_ = 0;
  std::vector<AdjNode> nodes_;
  std::vector<Shape> shapes_;
  std::vector<Primal> primals_;
  std::vector<SourceLoc> primal_locs_;
  std::vector<OutLet> lets_;
  std::unordered_map<Name, std::vector<int>, NameHash> env_;  // C's variables in scope
  std::unordered_map<Name, int, NameHash> free_;              // C's other free variables
  int unit_shape_ = kNone;

  void step() {
    check_resources();
    if (++steps_ > max_steps_) {
      throw DerivativeTooLarge("the derivative needs more than " + std::to_string(max_steps_) +
                               " steps of the linear R");
    }
  }

  int new_node() {
    nodes_.emplace_back();
    return static_cast<int>(nodes_.size() - 1);
  }

  int child(int node, int i) {
    if (nodes_[node].child[i] == kNone) {
      int c = new_node();
      nodes_[node].child[i] = c;
    }
    return nodes_[node].child[i];
  }

  int add_shape(Shape s) {
    shapes_.push_back(std::move(s));
    return static_cast<int>(shapes_.size() - 1);
  }

  int unit() {
    if (unit_shape_ == kNone) {
      Shape s;
      s.kind = Shape::Unit;
      unit_shape_ = add_shape(std::move(s));
    }
    return unit_shape_;
  }

  int atom(Term a, int adj) {
    if (a.type().is_unit()) return unit();
    Shape s;
    s.kind = Shape::Atom;
    s.atom = std::move(a);
    s.adj = adj;
    s.live = adj != kNone;
    return add_shape(std::move(s));
  }

  int pair(int a, int b) {
    Shape s;
    s.kind = Shape::Pair;
    s.part[0] = a;
    s.part[1] = b;
    s.live = shapes_[a].live || shapes_[b].live;
    s.nodes = 1 + shapes_[a].nodes + shapes_[b].nodes;
    return add_shape(std::move(s));
  }

  Type type_of(int s) {
    const Shape& sh = shapes_[s];
    switch (sh.kind) {
      case Shape::Atom:
        return sh.atom.type();
      case Shape::Unit:
        return Type::unit();
      case Shape::Pair:
        return Type::pair(type_of(sh.part[0]), type_of(sh.part[1]));
    }
    return Type::unit();
  }

  // A primal let z = e; z's adjoint node exists only if an operand's adjoint is reachable.
  int bind_primal(const char* base, Term e, Primal p, bool live, SourceLoc loc) {
    Name z = names_.fresh(base);
    p.type = e.type();
    p.adj = live ? new_node() : kNone;
    lets_.push_back(OutLet{z, e, loc});
    int s = atom(mk::var(z, p.type, loc), p.adj);
    primals_.push_back(std::move(p));
    primal_locs_.push_back(loc);
    return s;
  }

  // The value term of a shape (a value: variables, literals, * and pairs). A large tuple is
  // let-bound once (a Tuple primal), so that every use of it costs one variable.
  Term value_term(int s, SourceLoc loc) {
    const Shape& sh = shapes_[s];
    switch (sh.kind) {
      case Shape::Atom:
        return sh.atom;
      case Shape::Unit:
        return mk::unit(loc);
      case Shape::Pair:
        break;
    }
    if (shapes_[s].term) return shapes_[s].term;
    const StackScope stack_scope = check_stack("a derivative's tuple is nested too deeply");
    Term pt =
        mk::pair(value_term(shapes_[s].part[0], loc), value_term(shapes_[s].part[1], loc), loc);
    if (shapes_[s].nodes > 7) {
      Primal p;
      p.kind = Primal::Tuple;
      p.arg = s;
      int b = bind_primal("t", pt, p, shapes_[s].live, loc);
      pt = shapes_[b].atom;
    }
    shapes_[s].term = pt;
    return pt;
  }

  // fst / snd of a shape: a component of a pair, or a projection let of a variable whose
  // adjoint is the corresponding component of the variable's adjoint.
  int project(int s, int i, SourceLoc loc) {
    if (shapes_[s].kind == Shape::Pair) return shapes_[s].part[i];
    internal_check(shapes_[s].kind == Shape::Atom, "projection of a unit shape");
    if (shapes_[s].proj[i] != kNone) return shapes_[s].proj[i];
    Term a = shapes_[s].atom;
    Term e = i == 0 ? mk::fst(a, loc) : mk::snd(a, loc);
    int adj = shapes_[s].adj == kNone ? kNone : child(shapes_[s].adj, i);
    int r;
    if (e.type().is_unit()) {
      r = unit();
    } else {
      Name z = names_.fresh(i == 0 ? "f" : "s");
      lets_.push_back(OutLet{z, e, loc});
      Primal p;
      p.kind = Primal::Projection;
      p.type = e.type();
      p.adj = adj;
      primals_.push_back(std::move(p));
      primal_locs_.push_back(loc);
      r = atom(mk::var(z, e.type(), loc), adj);
    }
    shapes_[s].proj[i] = r;
    return r;
  }

  // The primal pass: C's operations as lets, in evaluation order; returns C's shape. Walks
  // let chains iteratively (traces of loops are long chains of lets in body position).
  int normalize(const Term& c) {
    std::vector<Name> scoped;
    Term cur = c;
    while (const Let* l = cur.as<Let>()) {
      step();
      int s = normalize(l->bound);
      env_[l->var].push_back(s);
      scoped.push_back(l->var);
      cur = l->body;
    }
    int result = normalize_operation(cur);
    for (std::size_t i = scoped.size(); i-- > 0;)
      env_[scoped[i]].pop_back();
    return result;
  }

  int normalize_operation(const Term& c) {
    step();
    const StackScope stack_scope = check_stack("a trace is nested too deeply to differentiate");
    SourceLoc loc = c.loc();
    switch (c.kind()) {
      case TermKind::Var: {
        Name y = c.as<Var>()->name;
        auto it = env_.find(y);
        if (it != env_.end() && !it->second.empty()) return it->second.back();
        auto f = free_.find(y);
        if (f != free_.end()) return f->second;
        int s = atom(c, kNone);  // a free variable other than x: a constant
        free_.emplace(y, s);
        return s;
      }
      case TermKind::Literal:
        return atom(c, kNone);
      case TermKind::Unit:
        return unit();
      case TermKind::Add: {
        const Add* a = c.as<Add>();
        int l = normalize(a->lhs);
        int r = normalize(a->rhs);
        Primal p;
        p.kind = Primal::Add;
        p.lhs = l;
        p.rhs = r;
        Term e = mk::add(value_term(l, loc), value_term(r, loc), loc);
        return bind_primal("a", e, p, shapes_[l].live || shapes_[r].live, loc);
      }
      case TermKind::Op: {
        const OpApp* o = c.as<OpApp>();
        int arg = normalize(o->arg);
        Primal p;
        p.kind = Primal::OpApp;
        p.op = o->op;
        p.arg = arg;
        Term e = mk::op(o->op, value_term(arg, loc), loc);
        return bind_primal(o->op.name().c_str(), e, p, shapes_[arg].live, loc);
      }
      case TermKind::Pair: {
        int a = normalize(c.as<Pair>()->first);
        int b = normalize(c.as<Pair>()->second);
        return pair(a, b);
      }
      case TermKind::Fst:
        return project(normalize(c.as<Fst>()->arg), 0, loc);
      case TermKind::Snd:
        return project(normalize(c.as<Snd>()->arg), 1, loc);
      case TermKind::Let:
        return normalize(c);
      case TermKind::If:
      case TermKind::LetRec:
      case TermKind::Call:
      case TermKind::Rd:
        throw InternalError(std::string("internal error: R applied to a ") + to_string(c.kind()) +
                            ", which is not a trace term");
    }
    throw InternalError("internal error: unknown term kind in the linear R");
  }

  // `a` as a variable (or literal): a let of the adjoint section when it is anything else.
  Term variable(const Term& a, const char* base, SourceLoc loc) {
    if (a.kind() == TermKind::Var || a.kind() == TermKind::Literal || a.kind() == TermKind::Unit) {
      return a;
    }
    Name z = names_.fresh(base);
    lets_.push_back(OutLet{z, a, loc});
    return mk::var(z, a.type(), loc);
  }

  // Adds the contribution `w` (of the shape's type) to the adjoints the shape reaches.
  void distribute(const Term& w, int s, SourceLoc loc) {
    if (!shapes_[s].live || is_zero(w)) return;
    const StackScope stack_scope = check_stack("a derivative's tuple is nested too deeply");
    switch (shapes_[s].kind) {
      case Shape::Unit:
        return;
      case Shape::Atom:
        accumulate(shapes_[s].adj, w, loc);
        return;
      case Shape::Pair: {
        int a = shapes_[s].part[0], b = shapes_[s].part[1];
        if (const Pair* p = w.as<Pair>()) {
          distribute(p->first, a, loc);
          distribute(p->second, b, loc);
          return;
        }
        Term q = variable(w, "a", loc);
        if (shapes_[a].live) distribute(mk::fst(q, loc), a, loc);
        if (shapes_[b].live) distribute(mk::snd(q, loc), b, loc);
        return;
      }
    }
  }

  // Adds the contribution `w` to an adjoint node: a real is one more term of the node's sum; a
  // product goes to the component nodes at once, so that every real adjoint is the sum of its
  // contributions in the order they were made (the order a tape's reverse sweep adds them in).
  void accumulate(int node, const Term& w, SourceLoc loc) {
    if (is_zero(w)) return;
    Type t = w.type();
    if (t.is_real()) {
      nodes_[node].whole.push_back(w);
      return;
    }
    if (t.is_unit()) return;
    const StackScope stack_scope = check_stack("a derivative's tuple is nested too deeply");
    if (const Pair* p = w.as<Pair>()) {
      accumulate(child(node, 0), p->first, loc);
      accumulate(child(node, 1), p->second, loc);
      return;
    }
    Term q = variable(w, "a", loc);
    accumulate(child(node, 0), mk::fst(q, loc), loc);
    accumulate(child(node, 1), mk::snd(q, loc), loc);
  }

  // The adjoint accumulated at `node` (of type t) as a term, or null if it is zero: the sum
  // of the contributions (real), or the pair of the components' adjoints (products).
  Term materialize(int node, Type t, SourceLoc loc) {
    if (t.is_unit()) return Term();
    if (t.is_real()) {
      const std::vector<Term>& whole = nodes_[node].whole;
      if (whole.empty()) return Term();
      Term sum = whole[0];
      for (std::size_t i = 1; i < whole.size(); ++i)
        sum = mk::add(sum, whole[i], loc);
      return sum;
    }
    const StackScope stack_scope = check_stack("a derivative's tuple is nested too deeply");
    Term a, b;
    if (nodes_[node].child[0] != kNone) a = materialize(nodes_[node].child[0], t.first(), loc);
    if (nodes_[node].child[1] != kNone) b = materialize(nodes_[node].child[1], t.second(), loc);
    if (!a && !b) return Term();
    return mk::pair(a ? a : make_zero(t.first(), loc), b ? b : make_zero(t.second(), loc), loc);
  }
};

double weighted_size(const Term& root) {
  double n = 0;
  std::vector<Term> todo{root};
  while (!todo.empty()) {
    Term t = std::move(todo.back());
    todo.pop_back();
    if (!is_trace_term_node(t))
      throw InternalError("internal error: weighted_term_size of a term that is not a trace");
    n += 1;
    if (const OpApp* o = t.as<OpApp>()) {
      if (o->op.kind() == OpKind::Dot || o->op.kind() == OpKind::Scale)
        n += o->op.vector_size() - 1;
    }
    for_each_subterm(t, [&](const Term& c) { todo.push_back(c); });
  }
  return n;
}

}  // namespace

double weighted_term_size(const Term& t) {
  return weighted_size(t);
}

Term linear_reverse_deriv(const Term& w, const Term& v, Name x, Type t, const Term& c,
                          NameSupply& names, std::uint64_t max_steps, ReverseDerivStats* stats) {
  internal_check(is_value(v) && is_value(w),
                 "R applied with a point or cotangent that is not a value");
  internal_check(v.type() == t && w.type() == c.type(), "R applied at the wrong types");
  // Every name of C, V and W is taken, so the fresh binders of the output capture nothing.
  reserve_names(c, names);
  reserve_names(v, names);
  reserve_names(w, names);
  names.reserve(x);
  LinearR r(names, max_steps);
  Term result;
  try {
    result = r.run(w, v, x, t, c);
  } catch (...) {
    if (stats) stats->clause_steps += r.steps();
    throw;
  }
  if (stats) stats->clause_steps += r.steps();
  verify_open_pass("the linear R", result);
  return result;
}

}  // namespace adlang
