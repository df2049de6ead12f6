#include "ad/reverse_deriv.hpp"

#include <string>
#include <utility>
#include <vector>

#include "lang/diagnostics.hpp"
#include "lang/free_vars.hpp"
#include "lang/rename.hpp"
#include "lang/reverse_template.hpp"
#include "lang/vector_space.hpp"
#include "lang/verifier.hpp"
#include "support/resource_budget.hpp"
#include "support/stack.hpp"

namespace adlang {

namespace {

// Whether W.R_V(x:T. C) takes more than max_steps clause applications: R's calls counted
// without R's work. A call's count does not depend on W or V, only on C's shape (a let's body is
// differentiated twice, everything else once), so the budget is refused before R builds a
// derivative it would have to give up on (in the checker, most of the steps R took were in
// derivatives it then gave up on). An explicit stack: C may be a chain of a million lets.
bool needs_more_steps(const Term& c, std::uint64_t max_steps) {
  std::vector<const TermNode*> todo{c.get()};
  std::uint64_t steps = 0;
  while (!todo.empty()) {
    const TermNode* n = todo.back();
    todo.pop_back();
    if (++steps > max_steps) return true;
    switch (n->kind()) {
      case TermKind::Add:
        todo.push_back(static_cast<const Add*>(n)->lhs.get());
        todo.push_back(static_cast<const Add*>(n)->rhs.get());
        break;
      case TermKind::Op:
        todo.push_back(static_cast<const OpApp*>(n)->arg.get());
        break;
      case TermKind::Let:
        todo.push_back(static_cast<const Let*>(n)->body.get());
        todo.push_back(static_cast<const Let*>(n)->body.get());
        todo.push_back(static_cast<const Let*>(n)->bound.get());
        break;
      case TermKind::Pair:
        todo.push_back(static_cast<const Pair*>(n)->first.get());
        todo.push_back(static_cast<const Pair*>(n)->second.get());
        break;
      case TermKind::Fst:
        todo.push_back(static_cast<const Fst*>(n)->arg.get());
        break;
      case TermKind::Snd:
        todo.push_back(static_cast<const Snd*>(n)->arg.get());
        break;
      case TermKind::Var:
      case TermKind::Literal:
      case TermKind::Unit:
      case TermKind::If:
      case TermKind::LetRec:
      case TermKind::Call:
      case TermKind::Rd:
        break;
    }
  }
  return false;
}

std::string too_large(std::uint64_t max_steps) {
  return "the derivative needs more than " + std::to_string(max_steps) +
         " steps of the paper's R (Fig. 6); its let clause differentiates each let body twice";
}

// The clauses of Fig. 6, each a separate function with the figure's equation above it. All
// of them assume the paper's conventions, which reverse_deriv() establishes: C is a trace
// term whose binders are all different and distinct from x and FV(V, W).
class ReverseDeriv {
 public:
  ReverseDeriv(NameSupply& names, std::uint64_t max_steps) : names_(names), max_steps_(max_steps) {}

  std::uint64_t steps() const { return steps_; }

  // W.R_V(x:T. C)
  Term r(const Term& w, const Term& v, Name x, Type t, const Term& c) {
    const StackScope stack_scope = check_stack("a derivative is nested too deeply");
    check_resources();
    if (++steps_ > max_steps_) throw DerivativeTooLarge(too_large(max_steps_));
    switch (c.kind()) {
      case TermKind::Var:
        return var(w, x, t, *c.as<Var>());
      case TermKind::Literal:
        return constant(t, c);
      case TermKind::Add:
        return add(w, v, x, t, *c.as<Add>());
      case TermKind::Op:
        return op(w, v, x, t, *c.as<OpApp>());
      case TermKind::Let:
        return let(w, v, x, t, *c.as<Let>());
      case TermKind::Unit:
        return unit(t, c);
      case TermKind::Pair:
        return pair(w, v, x, t, *c.as<Pair>());
      case TermKind::Fst:
        return fst(w, v, x, t, *c.as<Fst>());
      case TermKind::Snd:
        return snd(w, v, x, t, *c.as<Snd>());
      case TermKind::If:
      case TermKind::LetRec:
      case TermKind::Call:
      case TermKind::Rd:
        // Symbolic evaluation removes these; R is only defined on trace terms.
        throw InternalError(std::string("internal error: R applied to a ") + to_string(c.kind()) +
                            ", which is not a trace term");
    }
    throw InternalError("internal error: unknown term kind in R");
  }

 private:
  NameSupply& names_;
  std::uint64_t max_steps_;
  std::uint64_t steps_ = 0;

  // W.R_V(x:T. y) = W if y = x, 0_T if y != x
  Term var(const Term& w, Name x, Type t, const Var& y) {
    if (y.name == x) return w;
    return make_zero(t, y.loc());
  }

  // W.R_V(x:T. r) = 0_T
  Term constant(Type t, const Term& c) { return make_zero(t, c.loc()); }

  // W.R_V(x:T. D + E) = W.R_V(x:T. D) +_T W.R_V(x:T. E)
  Term add(const Term& w, const Term& v, Name x, Type t, const Add& c) {
    Term d = r(w, v, x, t, c.lhs);
    Term e = r(w, v, x, t, c.rhs);
    return make_plus(t, std::move(d), std::move(e), names_, c.loc());
  }

  // W.R_V(x:T. op(D)) = let x:T = V in let y:S = W.op_r(D) in y.R_V(x:T. D)
  //   (y not in FV(V), op : S -> U)
  Term op(const Term& w, const Term& v, Name x, Type t, const OpApp& c) {
    SourceLoc loc = c.loc();
    Type s = c.op.arg_type();
    Name y = names_.fresh("y");
    Term reverse = instantiate_reverse(c.op, c.arg, w, names_, loc);
    Term inner = r(mk::var(y, s, loc), v, x, t, c.arg);
    return mk::let(x, t, v, mk::let(y, s, std::move(reverse), std::move(inner), loc), loc);
  }

  // W.R_V(x:T. let y:S = D in E) =
  //   let x:T = V in let y:S = D in
  //   W.R_V(x:T. E) +_T (let yb:S = W.R_y(y:S. E) in yb.R_V(x:T. D))
  //   (y not in FV(W); y, yb not in FV(V, D))
  Term let(const Term& w, const Term& v, Name x, Type t, const Let& c) {
    SourceLoc loc = c.loc();
    Name y = c.var;
    Type s = c.bound.type();
    Name ybar = names_.fresh(y.str());
    Term through_body = r(w, v, x, t, c.body);
    Term wrt_y = r(w, mk::var(y, s, loc), y, s, c.body);
    Term through_bound = r(mk::var(ybar, s, loc), v, x, t, c.bound);
    Term through_y = mk::let(ybar, s, std::move(wrt_y), std::move(through_bound), loc);
    Term sum = make_plus(t, std::move(through_body), std::move(through_y), names_, loc);
    return mk::let(x, t, v, mk::let(y, s, c.bound, std::move(sum), loc), loc);
  }

  // W.R_V(x:T. *) = 0_T
  Term unit(Type t, const Term& c) { return make_zero(t, c.loc()); }

  // W.R_V(x:T. <D, E>_{U,S}) = let <y:U, z:S> = W in y.R_V(x:T. D) +_T z.R_V(x:T. E)
  //   (y, z not in FV(V, D, E))
  Term pair(const Term& w, const Term& v, Name x, Type t, const Pair& c) {
    SourceLoc loc = c.loc();
    Type u = c.first.type(), s = c.second.type();
    TypedName y{names_.fresh("y"), u}, z{names_.fresh("z"), s};
    Term d = r(mk::var(y.name, u, loc), v, x, t, c.first);
    Term e = r(mk::var(z.name, s, loc), v, x, t, c.second);
    return make_tuple_let({y, z}, w, make_plus(t, std::move(d), std::move(e), names_, loc), names_,
                          loc);
  }

  // W.R_V(x:T. fst_{U,S}(D)) = let x:T = V in let y:U*S = D in <W, 0_S>.R_V(x:T. D)
  //   (y not in FV(V, W, D)). The extracted figure reads <0_U, 0_S> here, which would make
  //   every projection's derivative zero; <W, 0_S> is the reading that agrees with
  //   d^r(pi_0)(W) = (W, 0) (Sec. 4.1) and with Theorem 6.1 (docs/semantics.md).
  Term fst(const Term& w, const Term& v, Name x, Type t, const Fst& c) {
    SourceLoc loc = c.loc();
    Type us = c.arg.type();
    Term cot = mk::pair(w, make_zero(us.second(), loc), loc);
    return projection(cot, v, x, t, c.arg, loc);
  }

  // W.R_V(x:T. snd_{U,S}(D)) = let x:T = V in let y:U*S = D in <0_U, W>.R_V(x:T. D)
  //   (y not in FV(V, W, D))
  Term snd(const Term& w, const Term& v, Name x, Type t, const Snd& c) {
    SourceLoc loc = c.loc();
    Type us = c.arg.type();
    Term cot = mk::pair(make_zero(us.first(), loc), w, loc);
    return projection(cot, v, x, t, c.arg, loc);
  }

  Term projection(const Term& cot, const Term& v, Name x, Type t, const Term& d, SourceLoc loc) {
    Name y = names_.fresh("y");
    Term inner = r(cot, v, x, t, d);
    return mk::let(x, t, v, mk::let(y, d.type(), d, std::move(inner), loc), loc);
  }
};

}  // namespace

Term reverse_deriv(const Term& w, const Term& v, Name x, Type t, const Term& c, NameSupply& names,
                   std::uint64_t max_steps, ReverseDerivStats* stats) {
  internal_check(is_value(v) && is_value(w),
                 "R applied with a point or cotangent that is not a value");
  internal_check(v.type() == t && w.type() == c.type(), "R applied at the wrong types");
  internal_check(is_trace_term(c), "R applied to a term that is not a trace term");
  if (max_steps != UINT64_MAX && needs_more_steps(c, max_steps))
    throw DerivativeTooLarge(too_large(max_steps));
  reserve_names(c, names);
  reserve_names(v, names);
  reserve_names(w, names);
  // Side condition x not in FV(V, W): rename the differentiation variable if needed.
  NameSet outer = free_vars(v);
  add_free_vars(w, outer);
  Term body = c;
  if (outer.count(x)) {
    Name x2 = names.fresh(x.str());
    body = substitute(c, x, mk::var(x2, t, c.loc()), names);
    x = x2;
  }
  // "All binding variables are different": binders apart from each other, x, FV(V, W).
  outer.insert(x);
  body = rename_apart(body, outer, names);
  ReverseDeriv r(names, max_steps);
  Term result = r.r(w, v, x, t, body);
  if (stats) stats->clause_steps += r.steps();
  verify_open_pass("Fig. 6's R", result);
  return result;
}

}  // namespace adlang
