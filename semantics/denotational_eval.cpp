#include "semantics/denotational_eval.hpp"

#include <Eigen/Core>
#include <string>

#include "lang/diagnostics.hpp"
#include "semantics/tagged_dual.hpp"
#include "support/resource_budget.hpp"
#include "support/setting_hint.hpp"
#include "support/stack.hpp"

namespace adlang {

namespace {

template <class S>
using Num = Tagged<S>;
template <class S>
using DenValue = boost::container::small_vector<Num<S>, 4>;
template <class S>
using Matrix = Eigen::Matrix<Num<S>, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using Vector = Eigen::Matrix<Num<S>, Eigen::Dynamic, 1>;

// A * v, refusing mismatched shapes (an internal invariant: Eigen does not check them in
// release builds).
template <class A, class V>
auto checked_product(const A& a, const V& v) {
  internal_check(a.cols() == v.rows(), "denotational rd: matrix and vector shapes differ");
  using Scalar = typename V::Scalar;
  Eigen::Matrix<Scalar, Eigen::Dynamic, 1> r = a * v;
  return r;
}

const char* precision_name(Precision p) {
  return to_string(p);
}

template <class S>
[[noreturn]] void out_of_range(SourceLoc loc, const std::string& what) {
  throw Undefined(UndefinedKind::Range, loc,
                  what + " is outside the range of " + precision_name(ScalarTraits<S>::precision) +
                      " precision",
                  {"rerun with " + setting_hint(Setting::Precision, "50") +
                   " to compute with 50-digit floats"});
}

template <class S>
void check_range(const Num<S>& x, SourceLoc loc, const char* what) {
  for (std::size_t i = 0; i < x.term_count(); ++i) {
    if (!ScalarTraits<S>::in_range(x.coeff(i).value)) {
      out_of_range<S>(loc, i == 0 ? std::string(what) : std::string("a derivative of ") + what);
    }
  }
}

// [[r]]: the real a literal denotes in precision S (read from its decimal text).
template <class S>
S literal_meaning(const Literal& lit) {
  S out;
  switch (ScalarTraits<S>::from_literal(lit.text, out)) {
    case LiteralProblem::None:
      return out;
    case LiteralProblem::Overflow:
      out_of_range<S>(lit.loc(), "the literal " + lit.text);
    case LiteralProblem::TooLargeForExact:
      throw Undefined(UndefinedKind::Unsupported, lit.loc(),
                      "the literal " + lit.text + " is too large for exact arithmetic");
  }
  throw InternalError("internal error: unknown literal problem");
}

// ---- [[op]] on tagged numbers ---------------------------------------------------------------
//
// The value part is always [[op]] = ev(op, -) of op_eval.hpp on the primal scalars, so domains,
// range and rounding of values are exactly the operational side's. The infinitesimal parts
// follow from op's derivative: for a unary f, f(a + e_t b) = f(a) + e_t f'(a) b, recursively
// over the tags present; polynomial operators are computed in the tagged arithmetic itself.
//
// These derivatives are written here again, on purpose, and not read from the operators' reverse
// templates (lang/operators.hpp), which every other evaluator, both Rs and the run-time tape
// share: this evaluator is the independent mathematical semantics they are checked against, so
// a wrong template shows up as a disagreement instead of being copied into the witness. A new
// operator needs its case here too (the switches below have no default, so it does not compile
// without one).

template <class S>
Num<S> unary(OpKind k, const Num<S>& x, SourceLoc loc, PredicateMode mode);

// 1 / x, with the domain of div (x != 0).
template <class S>
Num<S> reciprocal(const Num<S>& x, SourceLoc loc) {
  if (x.is_constant()) {
    S in[2] = {S(1), x.primal()}, out;
    eval_op(Op::make(OpKind::Div), in, &out, loc, PredicateMode::Strict);
    return Num<S>(out);
  }
  unsigned t = x.highest_tag();
  auto [a, b] = x.split(t);
  Num<S> fa = reciprocal(a, loc);
  Num<S> derivative = -(fa * fa);  // (1/x)' = -1/x^2
  return fa + (derivative * b).times_epsilon(t);
}

// f'(a) for the unary operator f, given fa = f(a).
template <class S>
Num<S> unary_derivative(OpKind k, const Num<S>& a, const Num<S>& fa, SourceLoc loc,
                        PredicateMode mode) {
  const Num<S> one(S(1));
  switch (k) {
    case OpKind::Neg:  // neg' = -1
      return Num<S>(S(-1));
    case OpKind::Sin:  // sin' = cos
      return unary(OpKind::Cos, a, loc, mode);
    case OpKind::Cos:  // cos' = -sin
      return -unary(OpKind::Sin, a, loc, mode);
    case OpKind::Exp:  // exp' = exp
      return fa;
    case OpKind::Log:  // log' x = 1 / x (x > 0)
      return reciprocal(a, loc);
    case OpKind::Sqrt:  // sqrt' x = 1 / (2 sqrt x) (x > 0)
      return reciprocal(Num<S>(S(2)) * fa, loc);
    case OpKind::Tanh:  // tanh' = 1 - tanh^2
      return one - fa * fa;
    case OpKind::Sigmoid:  // sigmoid' = sigmoid (1 - sigmoid)
      return fa * (one - fa);
    case OpKind::Floor:  // floor' = 0 off the integers (and everywhere under total predicates)
      return Num<S>(S(0));
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Dot:
    case OpKind::Scale:
      break;
  }
  throw InternalError("internal error: unary derivative of a non-unary operator");
}

template <class S>
Num<S> unary(OpKind k, const Num<S>& x, SourceLoc loc, PredicateMode mode) {
  const StackScope stack_scope =
      check_stack("a derivative is nested too deeply", StackFrameBytes::Denotation);
  if (x.is_constant()) {
    S out;
    eval_op(Op::make(k), &x.primal(), &out, loc, mode);
    return Num<S>(out);
  }
  unsigned t = x.highest_tag();
  auto [a, b] = x.split(t);
  Num<S> fa = unary(k, a, loc, mode);
  return fa + (unary_derivative(k, a, fa, loc, mode) * b).times_epsilon(t);
}

// out = [[op]](in) on tagged numbers.
template <class S>
void apply_op(Op op, const Num<S>* in, Num<S>* out, SourceLoc loc, PredicateMode mode) {
  const std::size_t n_in = op.arg_type().size(), n_out = op.result_type().size();
  // The value: ev(op, primal) (also reports domain and range errors, as the operational side).
  boost::container::small_vector<S, 4> pin(n_in), pout(n_out);
  bool constant = true;
  for (std::size_t i = 0; i < n_in; ++i) {
    pin[i] = in[i].primal();
    constant = constant && in[i].is_constant();
  }
  eval_op(op, pin.data(), pout.data(), loc, mode);
  if (constant) {
    for (std::size_t i = 0; i < n_out; ++i)
      out[i] = Num<S>(pout[i]);
    return;
  }
  const unsigned n = op.vector_size();
  switch (op.kind()) {
    case OpKind::Neg:
      out[0] = -in[0];
      break;
    case OpKind::Add:
      out[0] = in[0] + in[1];
      break;
    case OpKind::Sub:
      out[0] = in[0] - in[1];
      break;
    case OpKind::Mul:
      out[0] = in[0] * in[1];
      break;
    case OpKind::Div:
      out[0] = in[0] * reciprocal(in[1], loc);
      break;
    case OpKind::Dot: {
      Num<S> sum = in[0] * in[n];
      for (unsigned i = 1; i < n; ++i)
        sum = sum + in[i] * in[n + i];
      out[0] = sum;
      break;
    }
    case OpKind::Scale:
      for (unsigned i = 0; i < n; ++i)
        out[i] = in[0] * in[1 + i];
      break;
    case OpKind::Sin:
    case OpKind::Cos:
    case OpKind::Exp:
    case OpKind::Log:
    case OpKind::Sqrt:
    case OpKind::Tanh:
    case OpKind::Sigmoid:
    case OpKind::Floor:
      out[0] = unary(op.kind(), in[0], loc, mode);
      break;
  }
  for (std::size_t i = 0; i < n_out; ++i)
    check_range(out[i], loc, ("the result of " + op.name()).c_str());
}

// ---- the evaluator ------------------------------------------------------------------------

// Thrown inside one attempt when an approximant mu_0 is applied: [[M^(n)]] is undefined, and a
// larger n may define it.
struct ApproximantExhausted {
  Name function;
  SourceLoc loc;
};

template <class S>
class Denotation {
 public:
  Denotation(const DenotationOptions& o, std::uint64_t n, std::uint64_t& fuel_left,
             DenotationStats& stats)
      : options_(o), n_(n), fuel_left_(fuel_left), stats_(stats) {}

  // gamma: a chain of bindings; a function body sees only its parameter.
  struct Gamma {
    Name name;
    const DenValue<S>* value;
    const Gamma* next;
  };
  // phi: a chain of letrec groups, each bound to its approximant mu_level (the tuple of
  // functions of the group).
  struct Phi {
    const LetRec* group;
    const Phi* parent;
    std::uint64_t level;
  };

  DenValue<S> eval(const Term& m, const Gamma* g, const Phi* phi) {
    const StackScope stack_scope =
        check_stack("the denotation is nested too deeply", StackFrameBytes::Denotation);
    switch (m.kind()) {
      // [[x]] phi gamma = gamma(x)
      case TermKind::Var: {
        Name x = m.as<Var>()->name;
        for (const Gamma* b = g; b; b = b->next)
          if (b->name == x) return *b->value;
        throw InternalError("internal error: unbound variable in the denotation");
      }
      // [[r]] phi gamma = r
      case TermKind::Literal:
        return DenValue<S>{Num<S>(literal_meaning<S>(*m.as<Literal>()))};
      // [[M + N]] phi gamma = [[M]] phi gamma + [[N]] phi gamma
      case TermKind::Add: {
        const Add* a = m.as<Add>();
        DenValue<S> l = eval(a->lhs, g, phi);
        DenValue<S> r = eval(a->rhs, g, phi);
        Num<S> sum = l[0] + r[0];
        check_range(sum, m.loc(), "the sum");
        return DenValue<S>{std::move(sum)};
      }
      // [[op(M)]] phi gamma = [[op]]([[M]] phi gamma)
      case TermKind::Op: {
        const OpApp* o = m.as<OpApp>();
        DenValue<S> arg = eval(o->arg, g, phi);
        DenValue<S> out(o->op.result_type().size());
        apply_op(o->op, arg.data(), out.data(), m.loc(), options_.predicates);
        return out;
      }
      // [[let x:T = M in N]] phi gamma = [[N]] phi (gamma[[[M]] phi gamma / x])
      case TermKind::Let: {
        const Let* l = m.as<Let>();
        DenValue<S> bound = eval(l->bound, g, phi);
        Gamma inner{l->var, &bound, g};
        return eval(l->body, &inner, phi);
      }
      // [[*]] phi gamma = * (the empty vector)
      case TermKind::Unit:
        return DenValue<S>{};
      // [[<M, N>]] phi gamma = <[[M]] phi gamma, [[N]] phi gamma> (concatenation)
      case TermKind::Pair: {
        const Pair* p = m.as<Pair>();
        DenValue<S> a = eval(p->first, g, phi);
        DenValue<S> b = eval(p->second, g, phi);
        a.insert(a.end(), b.begin(), b.end());
        return a;
      }
      // [[fst_{T,U}(M)]] phi gamma = pi_0([[M]] phi gamma)
      case TermKind::Fst: {
        DenValue<S> v = eval(m.as<Fst>()->arg, g, phi);
        v.resize(m.type().size());
        return v;
      }
      // [[snd_{T,U}(M)]] phi gamma = pi_1([[M]] phi gamma)
      case TermKind::Snd: {
        DenValue<S> v = eval(m.as<Snd>()->arg, g, phi);
        v.erase(v.begin(), v.end() - static_cast<std::ptrdiff_t>(m.type().size()));
        return v;
      }
      // [[if B then M else N]] phi gamma = [[M]] if [[B]] = tt, [[N]] if ff, undefined otherwise
      case TermKind::If: {
        const If* i = m.as<If>();
        return eval(guard(i->guard, g, phi) ? i->then_branch : i->else_branch, g, phi);
      }
      // [[letrec f(x:T):U = M in N]] phi gamma = [[N]] (phi[mu_n alpha. ... / f]) gamma
      case TermKind::LetRec: {
        const LetRec* l = m.as<LetRec>();
        Phi inner{l, phi, n_};
        return eval(l->body, g, &inner);
      }
      // [[f(M)]] phi gamma = phi(f)([[M]] phi gamma)
      case TermKind::Call:
        return call(*m.as<Call>(), eval(m.as<Call>()->arg, g, phi), phi, m.loc());
      // [[M.rd_L(x:T. N)]] phi gamma = d^r_{[[L]] phi gamma}(a |-> [[N]] phi gamma[a/x])
      //                                ([[M]] phi gamma)
      case TermKind::Rd:
        return rd(*m.as<Rd>(), g, phi);
    }
    throw InternalError("internal error: unknown term kind in the denotation");
  }

  // The directional derivative J_a(f) v of f = b |-> [[N]] phi gamma[b/x], by one forward pass
  // whose perturbation is v times the infinitesimal of the current level.
  DenValue<S> forward(const Term& body, Name x, const DenValue<S>& a, const DenValue<S>& v,
                      const Gamma* g, const Phi* phi, SourceLoc loc) {
    unsigned tag = enter_level(loc);
    DenValue<S> point = a;
    for (std::size_t j = 0; j < point.size(); ++j)
      point[j] = point[j] + v[j].times_epsilon(tag);
    Gamma inner{x, &point, g};
    DenValue<S> out = eval(body, &inner, phi);
    DenValue<S> result(out.size());
    for (std::size_t i = 0; i < out.size(); ++i)
      result[i] = out[i].split(tag).second;
    --level_;
    return result;
  }

 private:
  const DenotationOptions& options_;
  std::uint64_t n_;  // the approximant of every letrec in this attempt
  std::uint64_t& fuel_left_;
  DenotationStats& stats_;
  unsigned level_ = 0;  // the current differentiation depth: the next tag

  // [[pred(M)]] phi gamma = [[pred]]([[M]] phi gamma); [[true]] = tt, [[false]] = ff.
  bool guard(const BoolTerm& b, const Gamma* g, const Phi* phi) {
    switch (b.kind()) {
      case BoolKind::Const:
        return b.as<BoolConst>()->value;
      case BoolKind::Pred: {
        const PredApp* p = b.as<PredApp>();
        DenValue<S> v = eval(p->arg, g, phi);
        // A predicate is continuous (locally constant), so it is evaluated at the point itself:
        // the infinitesimal parts do not affect it (Prop. 4.3).
        std::optional<bool> r =
            eval_pred(p->pred, v[0].primal(), v[1].primal(), options_.predicates);
        if (!r) throw predicate_undefined(p->pred, v[0].primal(), b.loc());
        return *r;
      }
    }
    throw InternalError("internal error: unknown boolean kind in the denotation");
  }

  // phi(f)(a): the approximant mu_k of f's group applied to a. mu_0 is undefined everywhere;
  // mu_(k+1)(a) = [[M]](phi'[mu_k / group]) {x -> a}, phi' the environment of the letrec.
  DenValue<S> call(const Call& c, const DenValue<S>& arg, const Phi* phi, SourceLoc loc) {
    for (const Phi* p = phi; p; p = p->parent) {
      for (const FunDef& d : p->group->defs) {
        if (d.id != c.fun.id) continue;
        if (p->level == 0) throw ApproximantExhausted{c.fun.name, loc};
        check_resources();
        if (fuel_left_ == 0) {
          throw Undefined(UndefinedKind::Fuel, loc,
                          "out of fuel after " + std::to_string(stats_.calls) +
                              " function calls in '" + c.fun.name.str() + "'",
                          {"the recursion may not terminate; raise the limit with " +
                           setting_hint(Setting::Fuel, "N")});
        }
        --fuel_left_;
        ++stats_.calls;
        Phi approximant{p->group, p->parent, p->level - 1};
        Gamma param{d.param, &arg, nullptr};
        return eval(d.body, &param, &approximant);
      }
    }
    throw InternalError("internal error: call of an unbound function in the denotation");
  }

  unsigned enter_level(SourceLoc loc) {
    const std::uint64_t max = std::min<std::uint64_t>(kMaxTags - 1, options_.max_rd_nesting);
    if (level_ >= max) {
      throw Undefined(UndefinedKind::Depth, loc,
                      "differentiation is nested more than " + std::to_string(max) + " levels deep",
                      {"each level doubles the cost of the denotation's arithmetic; raise the "
                       "limit with " +
                       setting_hint(Setting::MaxRdNesting, "N") + " (at most 63)"});
    }
    return level_++;
  }

  DenValue<S> rd(const Rd& r, const Gamma* g, const Phi* phi) {
    DenValue<S> point = eval(r.point, g, phi);
    DenValue<S> w = eval(r.cotangent, g, phi);
    const std::size_t n = point.size(), m = w.size();
    unsigned tag = enter_level(r.loc());
    // J(i, j) = d out_i / d a_j at a = [[L]]: the e_tag part of [[N]] at a + e_tag * u_j.
    Matrix<S> jac(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(n));
    DenValue<S> a = point;
    Gamma inner{r.var, &a, g};
    if (n == 0) eval(r.body, &inner, phi);  // d^r f at a is defined iff f(a) is (Sec. 4.1)
    for (std::size_t j = 0; j < n; ++j) {
      a[j] = point[j] + Num<S>::epsilon(tag);
      DenValue<S> out = eval(r.body, &inner, phi);
      a[j] = point[j];
      ++stats_.jacobian_columns;
      for (std::size_t i = 0; i < m; ++i)
        jac(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = out[i].split(tag).second;
    }
    --level_;
    Vector<S> wv(static_cast<Eigen::Index>(m));
    for (std::size_t i = 0; i < m; ++i)
      wv(static_cast<Eigen::Index>(i)) = w[i];
    // d^r_a(f)(w) = J_a(f)^T w (eq. 4).
    Vector<S> result = checked_product(jac.transpose(), wv);
    DenValue<S> out(n);
    for (std::size_t j = 0; j < n; ++j) {
      out[j] = result(static_cast<Eigen::Index>(j));
      check_range(out[j], r.loc(), "the derivative");
    }
    return out;
  }
};

template <class S>
DenValue<S> lift(const Value<S>& v) {
  DenValue<S> out;
  for (const S& s : v)
    out.push_back(Num<S>(s));
  return out;
}

template <class S>
Value<S> lower(const DenValue<S>& v) {
  Value<S> out;
  for (const Num<S>& x : v) {
    internal_check(x.is_constant(), "denotation left an infinitesimal in a value");
    out.push_back(x.primal());
  }
  return out;
}

// Runs `attempt(evaluator, gamma)` for the approximants n = 1, 2, 4, ... (or `unfold` alone)
// until it gives a value or fails for a reason a larger n cannot change.
template <class S, class F>
Value<S> with_approximants(const Term& m, const DenEnv<S>& inputs, const DenotationOptions& o,
                           DenotationStats* stats_out, F&& attempt) {
  DenotationStats stats;
  std::uint64_t fuel_left = o.fuel;
  // gamma as a chain over the inputs.
  std::vector<DenValue<S>> values;
  values.reserve(inputs.size());
  for (const auto& in : inputs)
    values.push_back(lift(in.second));
  using Gamma = typename Denotation<S>::Gamma;
  std::vector<Gamma> chain(inputs.size());
  const Gamma* g = nullptr;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    chain[i] = Gamma{inputs[i].first, &values[i], g};
    g = &chain[i];
  }
  std::uint64_t n = o.unfold.value_or(1);
  while (true) {
    ++stats.attempts;
    stats.approximant = n;
    Denotation<S> d(o, n, fuel_left, stats);
    try {
      Value<S> v = lower(attempt(d, g));
      if (stats_out) *stats_out = stats;
      return v;
    } catch (const ApproximantExhausted& e) {
      if (stats_out) *stats_out = stats;
      if (o.unfold) {
        throw Undefined(UndefinedKind::Unfold, e.loc,
                        "'" + e.function.str() + "' is applied beyond the approximant mu_" +
                            std::to_string(n) +
                            " of its letrec (the limited language letrec_n, Fig. 8)",
                        {"raise the bound with " + setting_hint(Setting::Unfold, "N")});
      }
      if (n >= o.max_approximant) {
        throw Undefined(
            UndefinedKind::Unfold, e.loc,
            "no Kleene approximant mu_n with n <= " + std::to_string(o.max_approximant) +
                " of the recursion through '" + e.function.str() + "' is defined here",
            {"the least fixed point is the union of the approximants (Lemma 6.5); the recursion "
             "may not terminate"});
      }
      n = n > o.max_approximant / 2 ? o.max_approximant : 2 * n;
    }
  }
  (void)m;
}

}  // namespace

template <class S>
Value<S> denote(const Term& m, const DenEnv<S>& gamma, const DenotationOptions& options,
                DenotationStats* stats) {
  using Gamma = typename Denotation<S>::Gamma;
  return with_approximants<S>(m, gamma, options, stats, [&](Denotation<S>& d, const Gamma* g) {
    return d.eval(m, g, nullptr);
  });
}

template <class S>
Value<S> denote_forward(const Term& n, Name x, const Value<S>& a, const Value<S>& v,
                        const DenEnv<S>& gamma, const DenotationOptions& options,
                        DenotationStats* stats) {
  using Gamma = typename Denotation<S>::Gamma;
  internal_check(a.size() == v.size(), "denote_forward: point and tangent sizes differ");
  DenValue<S> point = lift(a), tangent = lift(v);
  return with_approximants<S>(n, gamma, options, stats, [&](Denotation<S>& d, const Gamma* g) {
    return d.forward(n, x, point, tangent, g, nullptr, n.loc());
  });
}

#define ADLANG_INSTANTIATE_DENOTE(S)                                                       \
  template Value<S> denote<S>(const Term&, const DenEnv<S>&, const DenotationOptions&,     \
                              DenotationStats*);                                           \
  template Value<S> denote_forward<S>(const Term&, Name, const Value<S>&, const Value<S>&, \
                                      const DenEnv<S>&, const DenotationOptions&,          \
                                      DenotationStats*);

ADLANG_INSTANTIATE_DENOTE(double)
ADLANG_INSTANTIATE_DENOTE(Mpfr50)
ADLANG_INSTANTIATE_DENOTE(Mpfr100)
ADLANG_INSTANTIATE_DENOTE(Rational)

#undef ADLANG_INSTANTIATE_DENOTE

}  // namespace adlang
