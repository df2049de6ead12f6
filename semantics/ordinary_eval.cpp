#include "semantics/ordinary_eval.hpp"

#include <string>

#include "lang/diagnostics.hpp"
#include "semantics/derivation_recorder.hpp"
#include "semantics/symbolic_eval.hpp"
#include "support/resource_budget.hpp"
#include "support/setting_hint.hpp"
#include "support/stack.hpp"

namespace adlang {

template <class S>
S literal_value(const Literal& lit) {
  if constexpr (std::is_same_v<S, double>) {
    // Fast path: the parsed double is usable unless it overflowed.
    if (std::isfinite(lit.approx)) return lit.approx;
  }
  S out;
  switch (ScalarTraits<S>::from_literal(lit.text, out)) {
    case LiteralProblem::None:
      return out;
    case LiteralProblem::Overflow:
      throw Undefined(UndefinedKind::Range, lit.loc(),
                      "the literal " + lit.text + " is outside the range of " +
                          to_string(ScalarTraits<S>::precision) + " precision",
                      {"rerun with " + setting_hint(Setting::Precision, "50") +
                       " to compute with 50-digit floats"});
    case LiteralProblem::TooLargeForExact:
      throw Undefined(UndefinedKind::Unsupported, lit.loc(),
                      "the literal " + lit.text + " is too large for exact arithmetic",
                      {"exact mode accepts decimal exponents up to 10^" +
                       std::to_string(ScalarTraits<Rational>::kMaxDecimalExponent)});
  }
  throw InternalError("internal error: unknown literal problem");
}

template <class S>
Value<S> close_value(const Term& v, const ValueEnv<S>& rho) {
  switch (v.kind()) {
    case TermKind::Var: {
      const Value<S>* x = rho.lookup(v.as<Var>()->name);
      internal_check(x != nullptr, "unbound variable in a value");
      return *x;
    }
    case TermKind::Literal:
      return Value<S>{literal_value<S>(*v.as<Literal>())};
    case TermKind::Unit:
      return Value<S>{};
    case TermKind::Pair: {
      Value<S> a = close_value(v.as<Pair>()->first, rho);
      Value<S> b = close_value(v.as<Pair>()->second, rho);
      a.insert(a.end(), b.begin(), b.end());
      return a;
    }
    case TermKind::Add:
    case TermKind::Op:
    case TermKind::Let:
    case TermKind::Fst:
    case TermKind::Snd:
    case TermKind::If:
    case TermKind::LetRec:
    case TermKind::Call:
    case TermKind::Rd:
      break;
  }
  throw InternalError("internal error: close_value applied to a non-value");
}

const FunFrame* enter_call(const Closure& clo, FunFrame& scratch, EvalContext& cx, SourceLoc loc) {
  internal_check(clo.def != nullptr, "call of an unbound function");
  check_resources();
  if (cx.fuel_left == 0) {
    throw Undefined(UndefinedKind::Fuel, loc,
                    "out of fuel after " + std::to_string(cx.calls) + " function calls in '" +
                        clo.def->name.str() + "'",
                    {"the recursion may not terminate; raise the limit with " +
                     setting_hint(Setting::Fuel, "N")});
  }
  --cx.fuel_left;
  ++cx.calls;
  if (clo.frame->unfold_left == UINT64_MAX) return clo.frame;
  // Fig. 8: phi(f) = clo_{n+1,phi'} runs the body under phi'[clo_{n,phi'}/f].
  if (clo.frame->unfold_left == 0) {
    throw Undefined(UndefinedKind::Unfold, loc,
                    "'" + clo.def->name.str() +
                        "' is called beyond the unfolding bound of the "
                        "limited language (letrec_n, Fig. 8)",
                    {"raise the bound with " + setting_hint(Setting::Unfold, "N")});
  }
  scratch = FunFrame{clo.frame->group, clo.frame->parent, clo.frame->unfold_left - 1};
  return &scratch;
}

namespace {

// A stack machine over the term tree: eval(M) pushes the |T| scalars of M's value onto the
// operand stack, so pairs are concatenation and projections truncation, and no value is
// allocated. Variables bound while evaluating (let, call parameters) name regions of the
// operand stack; the caller's rho is visible outside function bodies.
template <class S>
class OrdinaryEval {
 public:
  OrdinaryEval(ValueEnv<S>& rho, EvalContext& cx) : rho_(rho), cx_(cx) {}

  Value<S> value_of(const Term& m, const FunFrame* phi) {
    eval(m, phi);
    return Value<S>(stack_.begin(), stack_.end());
  }

  bool bool_of(const BoolTerm& b, const FunFrame* phi) { return eval_bool(b, phi); }

 private:
  struct Binding {
    Name name;
    std::size_t offset, size;
  };

  ValueEnv<S>& rho_;
  EvalContext& cx_;
  std::vector<S> stack_;
  std::vector<Binding> env_;
  std::size_t env_base_ = 0;   // bindings below are outside the current function body
  bool outer_visible_ = true;  // whether rho_ is visible (not inside a function body)
  std::vector<S> op_out_;      // scratch for operator results

  void erase_below_top(std::size_t at, std::size_t n) {
    stack_.erase(stack_.begin() + static_cast<std::ptrdiff_t>(at),
                 stack_.begin() + static_cast<std::ptrdiff_t>(at + n));
  }

  void push_copy(std::size_t offset, std::size_t n) {
    stack_.reserve(stack_.size() + n);
    for (std::size_t i = 0; i < n; ++i)
      stack_.push_back(stack_[offset + i]);
  }

  // phi | rho |- M => V, reported to the derivation recorder when there is one.
  void eval(const Term& m, const FunFrame* phi) {
    if (!cx_.recorder) return eval_node(m, phi);
    std::size_t base = stack_.size();
    cx_.recorder->enter(EventKind::Eval, m, phi);
    eval_node(m, phi);
    cx_.recorder->leave(print_value<S>(m.type(), stack_.data() + base));
  }

  void eval_node(const Term& m, const FunFrame* phi) {
    const StackScope stack_scope = check_evaluation_depth(m.loc());
    switch (m.kind()) {
      // phi | rho |- V => rho(V)
      case TermKind::Var: {
        Name x = m.as<Var>()->name;
        for (std::size_t i = env_.size(); i > env_base_; --i) {
          if (env_[i - 1].name == x) {
            push_copy(env_[i - 1].offset, env_[i - 1].size);
            return;
          }
        }
        const Value<S>* v = outer_visible_ ? rho_.lookup(x) : nullptr;
        internal_check(v != nullptr, "unbound variable during evaluation");
        stack_.insert(stack_.end(), v->begin(), v->end());
        return;
      }
      case TermKind::Literal: {
        const Literal* lit = m.as<Literal>();
        if constexpr (std::is_same_v<S, double>) {
          if (std::isfinite(lit->approx) && lit->approx != 0) {
            stack_.push_back(lit->approx);
            return;
          }
        }
        stack_.push_back(literal_value<S>(*lit));
        return;
      }
      case TermKind::Unit:
        return;
      // V + W => t where t = r + s
      case TermKind::Add: {
        const Add* a = m.as<Add>();
        eval(a->lhs, phi);
        eval(a->rhs, phi);
        S sum = stack_[stack_.size() - 2] + stack_.back();
        stack_.pop_back();
        stack_.back() = sum;
        if (!ScalarTraits<S>::in_range(sum)) {
          throw Undefined(UndefinedKind::Range, m.loc(),
                          std::string("the sum is outside the range of ") +
                              to_string(ScalarTraits<S>::precision) + " precision",
                          {"rerun with " + setting_hint(Setting::Precision, "50") +
                           " to compute with 50-digit floats"});
        }
        return;
      }
      // op(V) => W where ev(op, V') ~ W
      case TermKind::Op: {
        const OpApp* o = m.as<OpApp>();
        std::size_t base = stack_.size();
        eval(o->arg, phi);
        if (o->op.kind() != OpKind::Scale) {  // a real result
          S out;
          eval_op(o->op, stack_.data() + base, &out, m.loc(), cx_.options.predicates);
          stack_.resize(base + 1);
          stack_[base] = std::move(out);
          return;
        }
        op_out_.resize(m.type().size());
        eval_op(o->op, stack_.data() + base, op_out_.data(), m.loc(), cx_.options.predicates);
        stack_.resize(base);
        stack_.insert(stack_.end(), op_out_.begin(), op_out_.end());
        return;
      }
      // let x:T = V in N => W if N => W under rho[V'/x]
      case TermKind::Let: {
        const Let* l = m.as<Let>();
        std::size_t base = stack_.size();
        eval(l->bound, phi);
        std::size_t k = stack_.size() - base;
        env_.push_back(Binding{l->var, base, k});
        eval(l->body, phi);
        env_.pop_back();
        erase_below_top(base, k);
        return;
      }
      // <V, W>: the concatenation of the two values.
      case TermKind::Pair:
        eval(m.as<Pair>()->first, phi);
        eval(m.as<Pair>()->second, phi);
        return;
      // fst_{T,U}(V) => W1 where V => <W1, W2>
      case TermKind::Fst: {
        std::size_t base = stack_.size();
        eval(m.as<Fst>()->arg, phi);
        stack_.resize(base + m.type().size());
        return;
      }
      // snd_{T,U}(V) => W2 where V => <W1, W2>
      case TermKind::Snd: {
        const Snd* s = m.as<Snd>();
        std::size_t base = stack_.size();
        eval(s->arg, phi);
        erase_below_top(base, s->arg.type().first().size());
        return;
      }
      // if true then M else N => V if M => V; if false ... N => V
      case TermKind::If: {
        const If* i = m.as<If>();
        bool b = eval_bool(i->guard, phi);
        eval(b ? i->then_branch : i->else_branch, phi);
        return;
      }
      // letrec f(x:T):U = M in N => V if N => V under phi[clo_phi(f(x:T):U. M)/f]
      case TermKind::LetRec: {
        const LetRec* l = m.as<LetRec>();
        FunFrame frame{l, phi, cx_.options.unfold.value_or(UINT64_MAX)};
        eval(l->body, &frame);
        return;
      }
      // f(V) => W if M => W under phi'[phi(f)/f] | {x -> V'}, phi(f) = clo_phi'(f(x:T):U. M)
      case TermKind::Call: {
        const Call* c = m.as<Call>();
        std::size_t base = stack_.size();
        eval(c->arg, phi);
        std::size_t k = stack_.size() - base;
        Closure clo = lookup_function(phi, c->fun);
        FunFrame scratch{};
        const FunFrame* callee = enter_call(clo, scratch, cx_, m.loc());
        std::size_t saved_base = env_base_;
        bool saved_outer = outer_visible_;
        env_base_ = env_.size();
        outer_visible_ = false;
        env_.push_back(Binding{clo.def->param, base, k});
        if (cx_.recorder)
          cx_.recorder->bind(clo.def->param, print_value<S>(c->arg.type(), stack_.data() + base));
        eval(clo.def->body, callee);
        env_.pop_back();
        env_base_ = saved_base;
        outer_visible_ = saved_outer;
        erase_below_top(base, k);
        return;
      }
      // W.rd_V(x:T. N) => X if W.rd_V(x:T. N) ~> C and C => X
      case TermKind::Rd:
        rd(*m.as<Rd>(), phi);
        return;
    }
    throw InternalError("internal error: unknown term kind in evaluator");
  }

  // phi | rho |- B => V_bool, reported to the derivation recorder when there is one.
  bool eval_bool(const BoolTerm& b, const FunFrame* phi) {
    if (!cx_.recorder) return eval_bool_node(b, phi);
    cx_.recorder->enter_bool(EventKind::EvalBool, b, Term(), phi);
    bool v = eval_bool_node(b, phi);
    cx_.recorder->leave(v ? "true" : "false");
    return v;
  }

  // pred(V) => W_bool where bev(pred, V') ~ W_bool
  bool eval_bool_node(const BoolTerm& b, const FunFrame* phi) {
    switch (b.kind()) {
      case BoolKind::Const:
        return b.as<BoolConst>()->value;
      case BoolKind::Pred: {
        const PredApp* p = b.as<PredApp>();
        eval(p->arg, phi);
        S rhs = stack_.back();
        stack_.pop_back();
        S lhs = stack_.back();
        stack_.pop_back();
        std::optional<bool> r = eval_pred(p->pred, lhs, rhs, cx_.options.predicates);
        if (!r) throw predicate_undefined(p->pred, lhs, b.loc());
        return *r;
      }
    }
    throw InternalError("internal error: unknown boolean kind in evaluator");
  }

  // The contexts M.rd_E(x:T. N) and E.rd_V(x:T. N) evaluate the point L first, then the
  // cotangent M, binding their values to fresh variables (Fig. 3); the redex is then
  // symbolically evaluated (Fig. 4: N traced at rho[V'/x] to C, giving W.R_V(x:T. C)) and
  // the resulting trace evaluated (Fig. 2).
  void rd(const Rd& r, const FunFrame* phi) {
    std::size_t base = stack_.size();
    eval(r.point, phi);
    std::size_t k = stack_.size() - base;
    eval(r.cotangent, phi);
    // The environment the redex sees: rho (outside function bodies) and our bindings.
    ValueEnv<S> env;
    if (outer_visible_) env = rho_;
    for (std::size_t i = env_base_; i < env_.size(); ++i) {
      const Binding& b = env_[i];
      env.push(b.name, Value<S>(stack_.begin() + static_cast<std::ptrdiff_t>(b.offset),
                                stack_.begin() + static_cast<std::ptrdiff_t>(b.offset + b.size)));
    }
    Name zl = cx_.names.fresh("l"), zm = cx_.names.fresh("m");
    Type t = r.point.type();
    env.push(zl, Value<S>(stack_.begin() + static_cast<std::ptrdiff_t>(base),
                          stack_.begin() + static_cast<std::ptrdiff_t>(base + k)));
    env.push(zm, Value<S>(stack_.begin() + static_cast<std::ptrdiff_t>(base + k), stack_.end()));
    // A point or cotangent that is already a value term stays as written (the redex of
    // Fig. 2 is W.rd_V(x:T. N) with V, W those values).
    Term point = is_value(r.point) ? r.point : mk::var(zl, t, r.point.loc());
    Term cot =
        is_value(r.cotangent) ? r.cotangent : mk::var(zm, r.cotangent.type(), r.cotangent.loc());
    Term redex = mk::rd(cot, point, r.var, t, r.body, r.loc());
    Traced<S> traced = symbolic_eval(redex, env, phi, cx_);
    stack_.resize(base);
    stack_.insert(stack_.end(), traced.value.begin(), traced.value.end());
  }
};

}  // namespace

template <class S>
Value<S> ordinary_eval(const Term& m, ValueEnv<S>& rho, const FunFrame* phi, EvalContext& cx) {
  return OrdinaryEval<S>(rho, cx).value_of(m, phi);
}

template <class S>
bool ordinary_eval_bool(const BoolTerm& b, ValueEnv<S>& rho, const FunFrame* phi, EvalContext& cx) {
  return OrdinaryEval<S>(rho, cx).bool_of(b, phi);
}

template double literal_value<double>(const Literal&);
template Mpfr50 literal_value<Mpfr50>(const Literal&);
template Mpfr100 literal_value<Mpfr100>(const Literal&);
template Rational literal_value<Rational>(const Literal&);
template Value<double> close_value<double>(const Term&, const ValueEnv<double>&);
template Value<Mpfr50> close_value<Mpfr50>(const Term&, const ValueEnv<Mpfr50>&);
template Value<Mpfr100> close_value<Mpfr100>(const Term&, const ValueEnv<Mpfr100>&);
template Value<Rational> close_value<Rational>(const Term&, const ValueEnv<Rational>&);
template Value<double> ordinary_eval<double>(const Term&, ValueEnv<double>&, const FunFrame*,
                                             EvalContext&);
template Value<Mpfr50> ordinary_eval<Mpfr50>(const Term&, ValueEnv<Mpfr50>&, const FunFrame*,
                                             EvalContext&);
template Value<Mpfr100> ordinary_eval<Mpfr100>(const Term&, ValueEnv<Mpfr100>&, const FunFrame*,
                                               EvalContext&);
template Value<Rational> ordinary_eval<Rational>(const Term&, ValueEnv<Rational>&, const FunFrame*,
                                                 EvalContext&);
template bool ordinary_eval_bool<double>(const BoolTerm&, ValueEnv<double>&, const FunFrame*,
                                         EvalContext&);
template bool ordinary_eval_bool<Mpfr50>(const BoolTerm&, ValueEnv<Mpfr50>&, const FunFrame*,
                                         EvalContext&);
template bool ordinary_eval_bool<Mpfr100>(const BoolTerm&, ValueEnv<Mpfr100>&, const FunFrame*,
                                          EvalContext&);
template bool ordinary_eval_bool<Rational>(const BoolTerm&, ValueEnv<Rational>&, const FunFrame*,
                                           EvalContext&);

}  // namespace adlang
