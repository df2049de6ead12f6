#include "conform/rd_elimination.hpp"

#include <deque>
#include <unordered_map>
#include <vector>

#include "ad/linear_reverse_deriv.hpp"
#include "conform/python_export.hpp"
#include "lang/diagnostics.hpp"
#include "lang/free_vars.hpp"
#include "lang/rename.hpp"
#include "lang/term_size.hpp"
#include "lang/vector_space.hpp"

namespace adlang::conform {

namespace {

std::uint32_t id_of(FunId id) {
  return static_cast<std::uint32_t>(id);
}

// The largest function id in t (0 if none).
void max_fun_id(const Term& t, std::uint32_t& out);

void max_fun_id_bool(const BoolTerm& b, std::uint32_t& out) {
  if (const auto* p = b.as<PredApp>()) max_fun_id(p->arg, out);
}

void max_fun_id(const Term& t, std::uint32_t& out) {
  switch (t.kind()) {
    case TermKind::Var:
    case TermKind::Literal:
    case TermKind::Unit:
      return;
    case TermKind::Add:
      max_fun_id(t.as<Add>()->lhs, out);
      max_fun_id(t.as<Add>()->rhs, out);
      return;
    case TermKind::Op:
      max_fun_id(t.as<OpApp>()->arg, out);
      return;
    case TermKind::Let:
      max_fun_id(t.as<Let>()->bound, out);
      max_fun_id(t.as<Let>()->body, out);
      return;
    case TermKind::Pair:
      max_fun_id(t.as<Pair>()->first, out);
      max_fun_id(t.as<Pair>()->second, out);
      return;
    case TermKind::Fst:
      max_fun_id(t.as<Fst>()->arg, out);
      return;
    case TermKind::Snd:
      max_fun_id(t.as<Snd>()->arg, out);
      return;
    case TermKind::If:
      max_fun_id_bool(t.as<If>()->guard, out);
      max_fun_id(t.as<If>()->then_branch, out);
      max_fun_id(t.as<If>()->else_branch, out);
      return;
    case TermKind::LetRec:
      for (const FunDef& d : t.as<LetRec>()->defs) {
        out = std::max(out, id_of(d.id));
        max_fun_id(d.body, out);
      }
      max_fun_id(t.as<LetRec>()->body, out);
      return;
    case TermKind::Call:
      out = std::max(out, id_of(t.as<Call>()->fun.id));
      max_fun_id(t.as<Call>()->arg, out);
      return;
    case TermKind::Rd:
      max_fun_id(t.as<Rd>()->cotangent, out);
      max_fun_id(t.as<Rd>()->point, out);
      max_fun_id(t.as<Rd>()->body, out);
      return;
  }
}

class RdElimination {
 public:
  RdElimination(NameSupply& names, std::uint64_t max_nodes, std::uint32_t next_id)
      : names_(names), max_nodes_(max_nodes), next_id_(next_id) {}

  Term run(const Term& t) {
    Term body = eliminate(t);
    // The derivative functions, generated on demand (each may ask for more).
    while (!pending_.empty()) {
      std::uint32_t id = pending_.front();
      pending_.pop_front();
      build_derivative_function(id);
    }
    if (defs_.empty()) return body;
    return mk::letrec(defs_, body);
  }

 private:
  // E: t without rd and without letrec (its functions go to defs_).
  Term eliminate(const Term& t) {
    switch (t.kind()) {
      case TermKind::Var:
      case TermKind::Literal:
      case TermKind::Unit:
        return t;
      case TermKind::Add:
        return mk::add(eliminate(t.as<Add>()->lhs), eliminate(t.as<Add>()->rhs), t.loc());
      case TermKind::Op:
        return mk::op(t.as<OpApp>()->op, eliminate(t.as<OpApp>()->arg), t.loc());
      case TermKind::Let: {
        const auto* l = t.as<Let>();
        Term bound = eliminate(l->bound);
        return mk::let(l->var, bound.type(), bound, eliminate(l->body), t.loc());
      }
      case TermKind::Pair:
        return mk::pair(eliminate(t.as<Pair>()->first), eliminate(t.as<Pair>()->second), t.loc());
      case TermKind::Fst:
        return mk::fst(eliminate(t.as<Fst>()->arg), t.loc());
      case TermKind::Snd:
        return mk::snd(eliminate(t.as<Snd>()->arg), t.loc());
      case TermKind::If: {
        const auto* i = t.as<If>();
        BoolTerm guard = i->guard;
        if (const auto* p = guard.as<PredApp>())
          guard = mk::pred(p->pred, eliminate(p->arg), guard.loc());
        return mk::if_(guard, eliminate(i->then_branch), eliminate(i->else_branch), t.loc());
      }
      case TermKind::LetRec: {
        const auto* r = t.as<LetRec>();
        for (const FunDef& d : r->defs) {
          FunDef e = d;
          e.body = eliminate(d.body);
          rd_free_[id_of(d.id)] = defs_.size();
          defs_.push_back(e);
        }
        return eliminate(r->body);
      }
      case TermKind::Call: {
        const auto* c = t.as<Call>();
        return mk::call(c->fun, c->param_type, t.type(), eliminate(c->arg), t.loc());
      }
      case TermKind::Rd: {
        const auto* r = t.as<Rd>();
        Term cotangent = eliminate(r->cotangent);
        Term point = eliminate(r->point);
        Term body = eliminate(r->body);
        Type u = body.type(), ty = point.type();
        Name w = names_.fresh("w"), v = names_.fresh("v");
        Term d = derivative(mk::var(w, u), mk::var(v, ty), r->var, ty, body);
        return mk::let(w, u, cotangent, mk::let(v, ty, point, d, t.loc()), t.loc());
      }
    }
    throw InternalError("rd elimination: unknown term kind");
  }

  // W.D_V(x:T. m) for variables W and V and an rd-free, letrec-free m (see the header).
  Term derivative(const Term& w, const Term& v, Name x, Type ty, const Term& m) {
    Term out = derivative_of(w, v, x, ty, m);
    nodes_ += term_size(out).tree;
    if (nodes_ > static_cast<double>(max_nodes_))
      throw ExportTooLarge("the program's derivative exceeds " + std::to_string(max_nodes_) +
                           " term nodes");
    return out;
  }

  Term derivative_of(const Term& w, const Term& v, Name x, Type ty, const Term& m) {
    if (is_trace_term(m)) return linear_reverse_deriv(w, v, x, ty, m, names_);
    // m does not depend on x: the derivative is 0 where m is defined.
    if (!occurs_free(x, m)) return mk::let(names_.fresh("unused"), m.type(), m, make_zero(ty));
    switch (m.kind()) {
      case TermKind::If: {
        // The branch the trace at V takes.
        const auto* i = m.as<If>();
        return mk::let(x, ty, v,
                       mk::if_(i->guard, derivative(w, v, x, ty, i->then_branch),
                               derivative(w, v, x, ty, i->else_branch)));
      }
      case TermKind::Let: {
        // Fig. 6: W.R_V(x. let y = A in B) =
        //   let y = A[V/x] in W.R_V(x. B) +_T (W.R_y(y. B[V/x])).R_V(x. A),
        // leaving out the summands that are 0 because x is not free in B, or not in A, or y is
        // not free in B (B is still evaluated, so the result is undefined where it is).
        const auto* l = m.as<Let>();
        Type uy = l->bound.type();
        bool x_in_bound = occurs_free(x, l->bound), x_in_body = occurs_free(x, l->body);
        bool through_y = x_in_bound && occurs_free(l->var, l->body);
        std::vector<Term> parts;
        if (x_in_body) parts.push_back(derivative(w, v, x, ty, l->body));
        Name yv = names_.fresh(l->var.str() + "v"), wy = names_.fresh("w");
        Term cotangent_y;
        if (through_y) {
          Term body_at_v = mk::let(x, ty, v, l->body);
          cotangent_y =
              derivative(w, mk::var(yv, uy), l->var, uy, rename_apart(body_at_v, {}, names_));
          parts.push_back(derivative(mk::var(wy, uy), v, x, ty, l->bound));
        }
        Term sum;
        if (parts.empty()) {
          sum = mk::let(names_.fresh("unused"), l->body.type(), mk::let(x, ty, v, l->body),
                        make_zero(ty));
        } else {
          sum = parts.size() == 1 ? parts[0] : make_plus(ty, parts[0], parts[1], names_);
        }
        if (through_y)
          sum = mk::let(yv, uy, mk::var(l->var, uy), mk::let(wy, uy, cotangent_y, sum));
        return mk::let(l->var, uy, mk::let(x, ty, v, l->bound), sum);
      }
      case TermKind::Call: {
        // (f_rd(<A[V/x], W>)).D_V(x. A).
        const auto* c = m.as<Call>();
        Type pt = c->param_type, rt = m.type();
        Name a = names_.fresh("a"), wa = names_.fresh("w");
        FunRef f_rd = derivative_function(c->fun, pt, rt);
        Term cotangent_a =
            mk::call(f_rd, Type::pair(pt, rt), pt, mk::pair(mk::var(a, pt), w), m.loc());
        return mk::let(a, pt, mk::let(x, ty, v, c->arg),
                       mk::let(wa, pt, cotangent_a, derivative(mk::var(wa, pt), v, x, ty, c->arg)));
      }
      case TermKind::Add: {
        const auto* s = m.as<Add>();
        Name a = names_.fresh("a"), b = names_.fresh("b");
        return derivative(
            w, v, x, ty,
            mk::let(a, Type::real(), s->lhs,
                    mk::let(b, Type::real(), s->rhs,
                            mk::add(mk::var(a, Type::real()), mk::var(b, Type::real()), m.loc()))));
      }
      case TermKind::Op: {
        const auto* o = m.as<OpApp>();
        Name a = names_.fresh("a");
        Type at = o->arg.type();
        return derivative(w, v, x, ty,
                          mk::let(a, at, o->arg, mk::op(o->op, mk::var(a, at), m.loc())));
      }
      case TermKind::Pair: {
        const auto* p = m.as<Pair>();
        Name a = names_.fresh("a"), b = names_.fresh("b");
        Type at = p->first.type(), bt = p->second.type();
        return derivative(
            w, v, x, ty,
            mk::let(a, at, p->first,
                    mk::let(b, bt, p->second, mk::pair(mk::var(a, at), mk::var(b, bt), m.loc()))));
      }
      case TermKind::Fst:
      case TermKind::Snd: {
        Term arg = m.kind() == TermKind::Fst ? m.as<Fst>()->arg : m.as<Snd>()->arg;
        Name a = names_.fresh("a");
        Type at = arg.type();
        Term proj = m.kind() == TermKind::Fst ? mk::fst(mk::var(a, at), m.loc())
                                              : mk::snd(mk::var(a, at), m.loc());
        return derivative(w, v, x, ty, mk::let(a, at, arg, proj));
      }
      case TermKind::Var:
      case TermKind::Literal:
      case TermKind::Unit:
      case TermKind::LetRec:
      case TermKind::Rd:
        break;
    }
    throw InternalError(std::string("rd elimination: unexpected ") + to_string(m.kind()));
  }

  // f_rd for f: (T * U) -> T, q |-> (snd q).D_{fst q}(p. body_f); made when first needed.
  FunRef derivative_function(const FunRef& f, Type pt, Type rt) {
    auto it = derivative_ids_.find(id_of(f.id));
    if (it == derivative_ids_.end()) {
      std::uint32_t id = next_id_++;
      Name name = names_.fresh(f.name.str() + "_rd");
      it = derivative_ids_.emplace(id_of(f.id), Derivative{id, name, f, pt, rt}).first;
      pending_.push_back(id_of(f.id));
    }
    return FunRef(it->second.name, static_cast<FunId>(it->second.id));
  }

  void build_derivative_function(std::uint32_t of) {
    const Derivative& d = derivative_ids_.at(of);
    auto f = rd_free_.find(of);
    if (f == rd_free_.end()) throw InternalError("rd elimination: a call of an unknown function");
    FunDef original = defs_[f->second];
    Type pt = d.param_type, rt = d.result_type;
    Type qt = Type::pair(pt, rt);
    Name q = names_.fresh("q"), a = names_.fresh("a"), w = names_.fresh("w");
    Term body = rename_apart(original.body, {}, names_);
    Term dbody = derivative(mk::var(w, rt), mk::var(a, pt), original.param, pt, body);
    FunDef def;
    def.name = d.name;
    def.param = q;
    def.param_type = qt;
    def.result_type = pt;
    def.body =
        mk::let(a, pt, mk::fst(mk::var(q, qt)), mk::let(w, rt, mk::snd(mk::var(q, qt)), dbody));
    def.loc = original.loc;
    def.id = static_cast<FunId>(d.id);
    rd_free_[d.id] = defs_.size();
    defs_.push_back(def);
  }

  struct Derivative {
    std::uint32_t id;
    Name name;
    FunRef of;
    Type param_type, result_type;
  };

  NameSupply& names_;
  std::uint64_t max_nodes_;
  double nodes_ = 0;  // the tree sizes of the derivatives made so far
  std::uint32_t next_id_;
  std::vector<FunDef> defs_;
  std::unordered_map<std::uint32_t, std::size_t> rd_free_;        // function id -> index in defs_
  std::unordered_map<std::uint32_t, Derivative> derivative_ids_;  // f's id -> f_rd
  std::deque<std::uint32_t> pending_;
};

}  // namespace

Term eliminate_rd(const Term& t, NameSupply& names, std::uint64_t max_nodes) {
  std::uint32_t max_id = 0;
  max_fun_id(t, max_id);
  RdElimination e(names, max_nodes, max_id + 1);
  return e.run(rename_apart(t, {}, names));
}

}  // namespace adlang::conform
