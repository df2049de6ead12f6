#include "checker/properties.hpp"

#include <array>
#include <cmath>
#include <new>
#include <sstream>

#include "ad/linear_reverse_deriv.hpp"
#include "checker/graph_agrees.hpp"
#include "checker/term_edit.hpp"
#include "lang/diagnostics.hpp"
#include "lang/free_vars.hpp"
#include "lang/printer.hpp"
#include "lang/stack.hpp"
#include "lang/vector_space.hpp"
#include "semantics/denotational_eval.hpp"
#include "semantics/ordinary_eval.hpp"

namespace adlang {

const std::vector<PropertyInfo>& all_properties() {
  static const std::vector<PropertyInfo> props = {
      {"type-safety", "Prop. 3.6, Prop. 3.3",
       "values and traces have the program's type; R's output has the point's type"},
      {"interpolation", "Prop. 3.5", "M => V iff M ~> C and C => V"},
      {"correctness", "Thm. 6.2 (1)", "M => V implies [[M]] = V"},
      {"correctness-near", "Thm. 6.2 (2)", "M ~> C implies [[M]] = [[C]] at rho and near rho"},
      {"r-derivative", "Thm. 6.1, Cor. 6.3",
       "[[W.R_V(x. C)]] = [[W.rd_V(x. C)]] = [[W.rd_V(x. M)]]"},
      {"completeness", "Thm. 6.7, Lemmas 6.5-6.6",
       "in letrec_n: M terminates iff [[M]] is defined, with equal values"},
      {"forward-via-reverse", "eq. 6", "U.fd_V(x. M) equals the dual-number derivative"},
      {"finite-differences", "third witness",
       "central differences (50 digits) agree with operational and denotational rd"},
      {"exact-polynomial", "Thm. 6.2 on rationals",
       "operational = denotational exactly on the polynomial fragment"},
      {"linear-r-agrees", "issue 5 (Fig. 6)",
       "the linear R and Fig. 6's R give the same value where Fig. 6's is feasible"},
      {"linear-r-size", "issue 5", "the linear R's output has at most 24 (|C| + |V| + |W|) nodes"},
      {"linear-r-nested", "issue 5 (eq. 6)",
       "U.fd_V(x. M) through the linear R agrees with central differences (50 digits)"},
      {"graph-agrees", "thesis Secs. 3-5",
       "the tagged dataflow graph (static, dynamic; 1 and 4 threads) = the compiled evaluator"},
  };
  return props;
}

namespace checker {

template <>
const Evaluators<double>& Implementations::get<double>() const {
  return d;
}
template <>
const Evaluators<Mpfr50>& Implementations::get<Mpfr50>() const {
  return m50;
}
template <>
const Evaluators<Mpfr100>& Implementations::get<Mpfr100>() const {
  return m100;
}
template <>
const Evaluators<Rational>& Implementations::get<Rational>() const {
  return q;
}

namespace {

template <class S>
Evaluators<S> production() {
  return Evaluators<S>{&ordinary_eval<S>, &symbolic_eval<S>, &denote<S>, &denote_forward<S>};
}

}  // namespace

Implementations production_implementations() {
  return Implementations{production<double>(),   production<Mpfr50>(),
                         production<Mpfr100>(),  production<Rational>(),
                         &adlang::reverse_deriv, &adlang::linear_reverse_deriv};
}

namespace {

bool is_resource(UndefinedKind k) {
  switch (k) {
    case UndefinedKind::OpDomain:
    case UndefinedKind::Predicate:
    case UndefinedKind::Unfold:
      return false;
    case UndefinedKind::Range:
    case UndefinedKind::Fuel:
    case UndefinedKind::Depth:
    case UndefinedKind::TraceSize:
    case UndefinedKind::Unsupported:
      return true;
  }
  return true;
}

// The outcome of one evaluation: a value, the paper's bottom (with its reason), or a resource
// limit (which says nothing about the semantics).
template <class S>
struct Result {
  enum State { Defined, Bottom, Resource } state = Defined;
  Value<S> value;
  std::string reason;
  Term trace;  // for symbolic evaluation
  bool defined() const { return state == Defined; }
  bool bottom() const { return state == Bottom; }
};

template <class S, class F>
Result<S> attempt(F&& f) {
  Result<S> r;
  try {
    f(r);
  } catch (const Undefined& e) {
    r.state = is_resource(e.kind()) ? Result<S>::Resource : Result<S>::Bottom;
    r.reason = std::string(to_string(e.kind())) + ": " + e.what();
  } catch (const StackExhausted& e) {
    r.state = Result<S>::Resource;
    r.reason = e.what();
  } catch (const DerivativeTooLarge& e) {
    r.state = Result<S>::Resource;
    r.reason = e.what();
  } catch (const std::bad_alloc&) {
    r.state = Result<S>::Resource;
    r.reason = "out of memory";
  }
  return r;
}

template <class S>
std::string show(const Result<S>& r, Type t) {
  switch (r.state) {
    case Result<S>::Defined:
      return print_value<S>(t, r.value);
    case Result<S>::Bottom:
      return "undefined (" + r.reason + ")";
    case Result<S>::Resource:
      return "gave up (" + r.reason + ")";
  }
  return "";
}

// A constant from its decimal text, in precision S.
template <class S>
S num(const char* text) {
  S out;
  ScalarTraits<S>::from_literal(text, out);
  return out;
}

// Tolerances: values computed by different routes (R's traces against dual numbers) agree up
// to rounding. A disagreement beyond this is re-checked in the next precision up.
template <class S>
S tolerance() {
  if constexpr (ScalarTraits<S>::exact) {
    return S(0);
  } else if constexpr (std::is_same_v<S, double>) {
    return 1e-9;
  } else if constexpr (std::is_same_v<S, Mpfr50>) {
    return num<S>("1e-30");
  } else {
    return num<S>("1e-70");
  }
}

template <class S>
S magnitude(const S& x) {
  return x < 0 ? S(-x) : x;
}

template <class S>
bool close(const Value<S>& a, const Value<S>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if constexpr (ScalarTraits<S>::exact) {
      if (a[i] != b[i]) return false;
    } else {
      S scale = S(1) + std::max(magnitude(a[i]), magnitude(b[i]));
      if (!(magnitude(S(a[i] - b[i])) <= tolerance<S>() * scale)) return false;
    }
  }
  return true;
}

struct Failure {
  std::string what;
};

// Per-program context: names, options, the extra random choices.
template <class S>
class Case {
 public:
  Case(const Program& p, const CheckConfig& c, std::uint64_t case_seed)
      : p_(p), c_(c), ev_(c.impl.get<S>()), rng_(case_seed, 0x7a11) {
    reserve_program_names(p, names_);
  }

  const Program& program() const { return p_; }
  Rng& rng() { return rng_; }
  void set_derivative_budget(std::uint64_t steps) { derivative_steps_ = steps; }
  NameSupply& names() { return names_; }
  const CheckConfig& config() const { return c_; }

  // Whether R is the linear one here: `--ad linear`, or a property about the linear R.
  void use_linear_r() { linear_ = true; }
  bool linear_r() const { return linear_; }

  // The R under test (Fig. 6's unless the linear one is selected), with its step budget.
  Term reverse(const Term& w, const Term& v, Name x, Type t, const Term& c) {
    return linear_ ? c_.impl.linear_reverse_deriv(w, v, x, t, c, names_,
                                                  c_.max_linear_derivative_steps, nullptr)
                   : c_.impl.reverse_deriv(w, v, x, t, c, names_, c_.max_derivative_steps, nullptr);
  }

  EvalOptions eval_options(std::optional<std::uint64_t> unfold = std::nullopt) const {
    EvalOptions o;
    o.predicates = c_.predicates;
    o.fuel = c_.fuel;
    o.unfold = unfold;
    o.max_trace_nodes = c_.max_trace_nodes;
    o.max_derivative_steps = linear_ ? c_.max_linear_derivative_steps : derivative_steps_;
    o.reverse_deriv = linear_ ? c_.impl.linear_reverse_deriv : c_.impl.reverse_deriv;
    return o;
  }

  DenotationOptions den_options(std::optional<std::uint64_t> unfold = std::nullopt) const {
    DenotationOptions o;
    o.predicates = c_.den_predicates;
    o.unfold = unfold;
    o.fuel = c_.fuel;
    o.max_approximant = c_.max_approximant;
    return o;
  }

  Result<S> run(const Term& m, const std::vector<Input>& inputs,
                std::optional<std::uint64_t> unfold = std::nullopt) {
    return attempt<S>([&](Result<S>& r) {
      ValueEnv<S> rho = value_env<S>(inputs);
      EvalContext cx(eval_options(unfold), names_);
      r.value = ev_.ordinary(m, rho, nullptr, cx);
    });
  }

  Result<S> trace(const Term& m, const std::vector<Input>& inputs,
                  std::optional<std::uint64_t> unfold = std::nullopt) {
    return attempt<S>([&](Result<S>& r) {
      ValueEnv<S> rho = value_env<S>(inputs);
      EvalContext cx(eval_options(unfold), names_);
      Traced<S> t = ev_.symbolic(m, rho, nullptr, cx);
      r.value = std::move(t.value);
      r.trace = t.trace;
    });
  }

  Result<S> den(const Term& m, const DenEnv<S>& gamma,
                std::optional<std::uint64_t> unfold = std::nullopt) {
    return attempt<S>(
        [&](Result<S>& r) { r.value = ev_.denote(m, gamma, den_options(unfold), nullptr); });
  }

  Result<S> den(const Term& m, const std::vector<Input>& inputs,
                std::optional<std::uint64_t> unfold = std::nullopt) {
    return den(m, den_env<S>(inputs), unfold);
  }

  Result<S> den_forward(const Term& n, Name x, const Value<S>& a, const Value<S>& v,
                        const std::vector<Input>& inputs) {
    return attempt<S>([&](Result<S>& r) {
      r.value = ev_.denote_forward(n, x, a, v, den_env<S>(inputs), den_options(), nullptr);
    });
  }

  // Picks an input to differentiate with respect to; false if there is none.
  bool pick_input(std::size_t& k) {
    if (p_.inputs.empty()) return false;
    k = rng_.below(static_cast<unsigned>(p_.inputs.size()));
    return true;
  }

  // The common setup of the derivative properties: an input x to differentiate with respect
  // to, V its value, a random cotangent W of M's type, and W.rd_V(x. M) over the other inputs.
  struct Differentiation {
    Input x;
    std::vector<Input> rest;
    Term v, w, rd;  // V, W, W.rd_V(x:T. M)
    std::vector<std::string> w_scalars;
    std::string where;
  };
  std::optional<Differentiation> differentiation() {
    std::size_t i = 0;
    if (!pick_input(i)) return std::nullopt;
    Differentiation d;
    d.x = p_.inputs[i];
    d.rest = inputs_without(i);
    Type u = p_.term.type();
    d.w_scalars = random_value(rng_, u);
    d.v = value_term(d.x.type, d.x.scalars);
    d.w = value_term(u, d.w_scalars);
    d.rd = mk::rd(d.w, d.v, d.x.name, d.x.type, p_.term);
    d.where = "with respect to " + d.x.name.str() + " at V = " + print_term(d.v) +
              ", W = " + print_term(d.w);
    return d;
  }

  // The common setup of the forward-derivative properties: an input x, V its value, a random
  // tangent U of x's type, and U.fd_V(x:T. M) = U.rd_{0_u}(y:u. y.rd_V(x:T. M)) (Sec. 2).
  struct ForwardDerivative {
    Input x;
    std::vector<Input> rest;
    Value<S> a, tangent;  // V and U as values
    Term fd;
    std::string where;
  };
  std::optional<ForwardDerivative> forward_derivative() {
    std::size_t i = 0;
    if (!pick_input(i)) return std::nullopt;
    ForwardDerivative f;
    f.x = p_.inputs[i];
    f.rest = inputs_without(i);
    Type u = p_.term.type();
    std::vector<std::string> tangent = random_value(rng_, f.x.type);
    Term vt = value_term(f.x.type, f.x.scalars), ut = value_term(f.x.type, tangent);
    Name y = names_.fresh("y");
    f.fd = mk::rd(ut, make_zero(u), y, u, mk::rd(mk::var(y, u), vt, f.x.name, f.x.type, p_.term));
    f.a = input_value<S>(f.x);
    f.tangent = input_value<S>(Input{f.x.name, f.x.type, tangent});
    f.where = "with respect to " + f.x.name.str() + " at V = " + print_term(vt) +
              ", tangent = " + print_term(ut);
    return f;
  }

  std::vector<Input> inputs_without(std::size_t k) const {
    std::vector<Input> rest = p_.inputs;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(k));
    return rest;
  }

 private:
  const Program& p_;
  const CheckConfig& c_;
  const Evaluators<S>& ev_;
  Rng rng_;
  NameSupply names_;
  std::uint64_t derivative_steps_ = c_.max_derivative_steps;
  bool linear_ = c_.linear_r;
};

Outcome fail(std::string what) {
  return Outcome{Verdict::Fail, std::move(what)};
}
Outcome discard(std::string why) {
  return Outcome{Verdict::Discard, std::move(why)};
}
Outcome pass() {
  return Outcome{Verdict::Pass, ""};
}
Outcome both_undefined() {
  return Outcome{Verdict::BothUndefined, ""};
}

template <class S>
bool any_resource(std::initializer_list<const Result<S>*> rs, std::string& why) {
  for (const Result<S>* r : rs) {
    if (r->state == Result<S>::Resource) {
      why = r->reason;
      return true;
    }
  }
  return false;
}

std::vector<TypedName> typed(const std::vector<Input>& inputs) {
  std::vector<TypedName> g;
  for (const Input& in : inputs)
    g.push_back(TypedName{in.name, in.type});
  return g;
}

// Compares two results that must agree: both the same bottom-ness, and equal values.
template <class S>
std::optional<std::string> disagreement(const char* a_name, const Result<S>& a, const char* b_name,
                                        const Result<S>& b, Type t) {
  if (a.defined() != b.defined() || (a.defined() && !close(a.value, b.value))) {
    return std::string(a_name) + " = " + show(a, t) + "\n" + b_name + " = " + show(b, t);
  }
  return std::nullopt;
}

// ---- the properties -------------------------------------------------------------------------

template <class S>
Outcome type_safety(Case<S>& k) {
  const Program& p = k.program();
  Type t = p.term.type();
  Result<S> v = k.run(p.term, p.inputs);
  if (v.defined()) {
    // |- V : T: a closed value of type T is |T| reals (Sec. 5).
    if (v.value.size() != t.size())
      return fail("M => V gave " + std::to_string(v.value.size()) + " scalars for type " +
                  to_string(t));
  }
  Result<S> c = k.trace(p.term, p.inputs);
  if (c.defined()) {
    // Gamma |- C : T, and C is a trace term.
    if (!is_trace_term(c.trace)) return fail("M ~> C gave a C that is not a trace term");
    if (c.trace.type() != t)
      return fail("M ~> C gave C : " + to_string(c.trace.type()) + ", not " + to_string(t));
    if (!well_scoped(c.trace, typed(p.inputs)))
      return fail("M ~> C gave a C that is not well typed in Gamma");
    // Prop. 3.3: Gamma |- W.R_V(x:T. C) : T for an input x (V its value, W random).
    std::size_t i = 0;
    if (k.pick_input(i)) {
      const Input& x = p.inputs[i];
      Term vt = value_term(x.type, x.scalars);
      Term wt = value_term(t, random_value(k.rng(), t));
      Result<S> r = attempt<S>(
          [&](Result<S>& out) { out.trace = k.reverse(wt, vt, x.name, x.type, c.trace); });
      if (!r.defined()) return discard(r.reason);
      Term d = r.trace;
      if (d.type() != x.type)
        return fail("W.R_V(x. C) : " + to_string(d.type()) + ", not " + to_string(x.type));
      if (!is_trace_term(d)) return fail("W.R_V(x. C) is not a trace term");
      if (!well_scoped(d, typed(k.inputs_without(i))))
        return fail("W.R_V(x. C) is not well typed in Gamma without x");
    }
  }
  std::string why;
  if (any_resource<S>({&v, &c}, why)) return discard(why);
  if (v.bottom() && c.bottom()) return both_undefined();
  if (v.defined() != c.defined()) return fail("M => " + show(v, t) + "\nM ~> C: " + show(c, t));
  return pass();
}

template <class S>
Outcome interpolation(Case<S>& k) {
  const Program& p = k.program();
  Type t = p.term.type();
  Result<S> v = k.run(p.term, p.inputs);
  Result<S> c = k.trace(p.term, p.inputs);
  Result<S> cv;
  if (c.defined()) cv = k.run(c.trace, p.inputs);
  std::string why;
  if (any_resource<S>({&v, &c}, why) || (c.defined() && cv.state == Result<S>::Resource))
    return discard(why.empty() ? cv.reason : why);
  if (!c.defined()) cv = c;
  if (auto d = disagreement("M => V", v, "C => V (C the trace of M)", cv, t)) return fail(*d);
  return v.defined() ? pass() : both_undefined();
}

template <class S>
Outcome correctness(Case<S>& k) {
  const Program& p = k.program();
  Type t = p.term.type();
  Result<S> v = k.run(p.term, p.inputs);
  Result<S> d = k.den(p.term, p.inputs);
  std::string why;
  if (any_resource<S>({&v, &d}, why)) return discard(why);
  if (!v.defined()) return d.defined() ? pass() : both_undefined();  // completeness's part
  if (auto x = disagreement("M => V", v, "[[M]] rho", d, t)) return fail(*x);
  return pass();
}

// Perturbation sizes for "near rho": a disagreement must persist at all of them (the theorem
// only promises some open neighbourhood, which may be small).
template <class S>
std::vector<S> near_scales() {
  if constexpr (ScalarTraits<S>::exact) {
    return {S(1) / S(1000), S(1) / S(1000000), S(1) / S(1000000000)};
  } else if constexpr (std::is_same_v<S, double>) {
    return {1e-3, 1e-5, 1e-7};
  } else if constexpr (std::is_same_v<S, Mpfr50>) {
    return {num<S>("1e-8"), num<S>("1e-14"), num<S>("1e-20")};
  } else {
    return {num<S>("1e-10"), num<S>("1e-25"), num<S>("1e-40")};
  }
}

template <class S>
Outcome correctness_near(Case<S>& k) {
  const Program& p = k.program();
  Type t = p.term.type();
  Result<S> c = k.trace(p.term, p.inputs);
  if (c.state == Result<S>::Resource) return discard(c.reason);
  if (!c.defined()) return both_undefined();
  Result<S> dm = k.den(p.term, p.inputs);
  Result<S> dc = k.den(c.trace, p.inputs);
  std::string why;
  if (any_resource<S>({&dm, &dc}, why)) return discard(why);
  if (auto x = disagreement("[[M]] rho", dm, "[[C]] rho (C the trace of M at rho)", dc, t))
    return fail(*x);
  // A random direction; every input scalar moves.
  DenEnv<S> base = den_env<S>(p.inputs);
  std::vector<std::vector<S>> dir;
  for (const auto& [name, v] : base) {
    std::vector<S> d;
    for (std::size_t i = 0; i < v.size(); ++i) {
      int r = static_cast<int>(k.rng().below(14)) - 7;  // -7..-1, 1..7
      if (r >= 0) ++r;
      d.push_back(S(r) / S(7));
    }
    dir.push_back(d);
  }
  if (base.empty()) return pass();
  std::string last;
  for (const S& h : near_scales<S>()) {
    DenEnv<S> g = base;
    for (std::size_t j = 0; j < g.size(); ++j)
      for (std::size_t i = 0; i < g[j].second.size(); ++i)
        g[j].second[i] = g[j].second[i] + h * dir[j][i];
    Result<S> m = k.den(p.term, g);
    Result<S> cc = k.den(c.trace, g);
    if (m.state == Result<S>::Resource || cc.state == Result<S>::Resource)
      return discard(m.reason + cc.reason);
    auto x = disagreement("[[M]] gamma", m, "[[C]] gamma", cc, t);
    if (!x) return pass();
    last =
        "at gamma = rho + " + ScalarTraits<S>::to_text(h) + " * d, with C the trace at rho:\n" + *x;
  }
  return fail("[[M]] and [[C]] disagree at every point tried near rho; closest:\n" + last);
}

template <class S>
Outcome r_derivative(Case<S>& k) {
  const Program& p = k.program();
  auto d = k.differentiation();
  if (!d) return discard("no input to differentiate with respect to");
  const Input& x = d->x;
  Result<S> c = k.trace(p.term, p.inputs);
  Result<S> rhs = k.den(d->rd, d->rest);
  if (c.state == Result<S>::Resource || rhs.state == Result<S>::Resource)
    return discard(c.reason + rhs.reason);
  if (!c.defined()) {
    if (rhs.defined())
      return fail("M has no trace at x = V, but [[W.rd_V(x. M)]] = " + show(rhs, x.type));
    return both_undefined();
  }
  Result<S> r_out =
      attempt<S>([&](Result<S>& r) { r.trace = k.reverse(d->w, d->v, x.name, x.type, c.trace); });
  if (r_out.state == Result<S>::Resource) return discard(r_out.reason);
  Result<S> lhs = k.den(r_out.trace, d->rest);
  Result<S> mid = k.den(mk::rd(d->w, d->v, x.name, x.type, c.trace), d->rest);
  std::string why;
  if (any_resource<S>({&lhs, &mid}, why)) return discard(why);
  if (auto e =
          disagreement(k.linear_r() ? "[[W.R_V(x. C)]] (linear R)" : "[[W.R_V(x. C)]] (Fig. 6)",
                       lhs, "[[W.rd_V(x. C)]] (J^T W)", mid, x.type))
    return fail(d->where + "\n" + *e);
  if (auto e = disagreement("[[W.rd_V(x. C)]]", mid, "[[W.rd_V(x. M)]]", rhs, x.type))
    return fail(d->where + "\n" + *e);
  return pass();
}

template <class S>
Outcome completeness(Case<S>& k) {
  const Program& p = k.program();
  Type t = p.term.type();
  static const std::uint64_t kBounds[] = {0, 1, 2, 3, 5};
  std::uint64_t n = kBounds[k.rng().below(5)];
  Result<S> op = k.run(p.term, p.inputs, n);
  Result<S> sym = k.trace(p.term, p.inputs, n);
  Result<S> den = k.den(p.term, p.inputs, n);
  std::string why;
  if (any_resource<S>({&op, &sym, &den}, why)) return discard(why);
  std::string label = "letrec_" + std::to_string(n) + ": ";
  if (auto d = disagreement((label + "M => V").c_str(), op, (label + "[[M]] rho").c_str(), den, t))
    return fail(*d);
  if (op.defined() != sym.defined())
    return fail(label + "M => " + show(op, t) + "\n" + label + "M ~> C: " + show(sym, t));
  if (!op.defined()) return both_undefined();
  // Lemma 6.6: termination in letrec_n implies termination in the main language, same value.
  Result<S> full = k.run(p.term, p.inputs);
  if (full.state == Result<S>::Resource) return discard(full.reason);
  if (auto d = disagreement((label + "M => V").c_str(), op, "main language: M => V", full, t))
    return fail(*d);
  return pass();
}

template <class S>
Outcome forward_via_reverse(Case<S>& k) {
  const Program& p = k.program();
  // R of R's output: the paper's R is exponential in let depth (DESIGN.md Sec. 6). Programs
  // that need more than a quarter of the usual step budget are discarded quickly rather than
  // slowly (the budget is what a discard costs).
  k.set_derivative_budget(k.config().max_derivative_steps / 4);
  auto f = k.forward_derivative();
  if (!f) return discard("no input to differentiate with respect to");
  Type u = p.term.type();
  Result<S> op = k.run(f->fd, f->rest);
  Result<S> dual = k.den_forward(p.term, f->x.name, f->a, f->tangent, f->rest);
  std::string why;
  if (any_resource<S>({&op, &dual}, why)) return discard(why);
  if (auto d = disagreement("U.fd_V(x. M) (nested R)", op, "J_V U (dual numbers)", dual, u))
    return fail(f->where + "\n" + *d);
  return op.defined() ? pass() : both_undefined();
}

// M at a + s*u (u a direction of x's type), over the other inputs, in precision S.
template <class S>
Result<S> at_shift(Case<S>& k, const Input& x, const std::vector<Input>& rest, const Value<S>& a,
                   const Value<S>& u, const S& s) {
  Value<S> shifted = a;
  for (std::size_t j = 0; j < a.size(); ++j)
    shifted[j] = a[j] + s * u[j];
  return attempt<S>([&](Result<S>& r) {
    ValueEnv<S> rho = value_env<S>(rest);
    rho.push(x.name, shifted);
    EvalContext cx(k.eval_options(), k.names());
    r.value = k.config().impl.template get<S>().ordinary(k.program().term, rho, nullptr, cx);
  });
}

// The step sizes of the central differences (50 or 100 digits), and the tolerance within which
// the two estimates must agree for the difference quotient to count as converged.
template <class S>
struct CentralSteps {
  S h[2] = {std::is_same_v<S, Mpfr100> ? num<S>("1e-25") : num<S>("1e-14"),
            std::is_same_v<S, Mpfr100> ? num<S>("1e-30") : num<S>("1e-17")};
  S tol = std::is_same_v<S, Mpfr100> ? num<S>("1e-40") : num<S>("1e-20");
};

// (M(V + hU) - M(V - hU)) / 2h at both step sizes, componentwise; nullopt (with `why`) where M
// is undefined within h of V.
template <class S>
std::optional<std::array<Value<S>, 2>> central_differences(Case<S>& k, const Input& x,
                                                           const std::vector<Input>& rest,
                                                           const Value<S>& a, const Value<S>& u,
                                                           std::string& why) {
  CentralSteps<S> steps;
  std::array<Value<S>, 2> est;
  for (int n = 0; n < 2; ++n) {
    const S& h = steps.h[n];
    Result<S> plus = at_shift(k, x, rest, a, u, h), minus = at_shift(k, x, rest, a, u, S(-h));
    if (!plus.defined() || !minus.defined()) {
      why = "M is undefined within h of V: " + plus.reason + minus.reason;
      return std::nullopt;
    }
    est[n] = Value<S>(plus.value.size());
    for (std::size_t r = 0; r < plus.value.size(); ++r)
      est[n][r] = (plus.value[r] - minus.value[r]) / (S(2) * h);
  }
  return est;
}

// Whether the two estimates agree within the tolerance (the quotient has converged).
template <class S>
bool converged(const std::array<Value<S>, 2>& est) {
  S tol = CentralSteps<S>().tol;
  for (std::size_t r = 0; r < est[1].size(); ++r)
    if (!(magnitude(S(est[0][r] - est[1][r])) <= tol * (S(1) + magnitude(est[1][r])))) return false;
  return true;
}

// Central differences in 50 (or 100) digits, at two step sizes: the estimate is used only if
// the two agree (the difference quotient has converged), otherwise the program is discarded.
template <class S>
Outcome finite_differences(Case<S>& k) {
  const Program& p = k.program();
  auto d = k.differentiation();
  if (!d) return discard("no input to differentiate with respect to");
  const Input& x = d->x;
  const std::vector<Input>& rest = d->rest;
  Type u = p.term.type();
  Result<S> op = k.run(d->rd, rest);
  Result<S> den = k.den(d->rd, rest);
  std::string why;
  if (any_resource<S>({&op, &den}, why)) return discard(why);
  if (!op.defined() && !den.defined()) return both_undefined();
  if (auto e = disagreement("W.rd_V(x. M) => ", op, "[[W.rd_V(x. M)]]", den, x.type))
    return fail(*e);
  Value<S> a = input_value<S>(x), wv = input_value<S>(Input{x.name, u, d->w_scalars});
  // The gradient W^T J by columns: column j is the central difference in the direction e_j.
  std::array<Value<S>, 2> grad{Value<S>(a.size()), Value<S>(a.size())};
  for (std::size_t j = 0; j < a.size(); ++j) {
    Value<S> e(a.size(), S(0));
    e[j] = S(1);
    auto col = central_differences(k, x, rest, a, e, why);
    if (!col) return discard(why);
    for (int n = 0; n < 2; ++n) {
      S dot(0);
      for (std::size_t r = 0; r < wv.size(); ++r)
        dot = dot + wv[r] * (*col)[n][r];
      grad[n][j] = dot;
    }
  }
  if (!converged(grad)) return discard("the difference quotients have not converged");
  const Value<S>& fd2 = grad[1];
  const S tol = CentralSteps<S>().tol;
  Result<S> fd;
  fd.value = fd2;
  for (std::size_t j = 0; j < a.size(); ++j) {
    S scale = S(1) + magnitude(fd2[j]);
    if (!op.defined() || !(magnitude(S(fd2[j] - op.value[j])) <= tol * S(1000) * scale))
      return fail(d->where + "\nW.rd_V(x. M) => " + show(op, x.type) +
                  "\ncentral differences give " + print_value<S>(x.type, fd.value));
  }
  return pass();
}

template <class S>
Outcome exact_polynomial(Case<S>& k) {
  Outcome o = correctness(k);
  if (o.verdict == Verdict::Fail || o.verdict == Verdict::Discard) return o;
  auto d = k.differentiation();
  if (!d) return o;
  Result<S> op = k.run(d->rd, d->rest);
  Result<S> den = k.den(d->rd, d->rest);
  std::string why;
  if (any_resource<S>({&op, &den}, why)) return discard(why);
  if (auto e = disagreement("W.rd_V(x. M) =>", op, "[[W.rd_V(x. M)]]", den, d->x.type))
    return fail(d->where + "\n" + *e);
  return o;
}

// The linear R against Fig. 6's on the trace C of M at rho: both outputs evaluated at rho.
// Every op of C is defined at V (C is M's trace there), so both are defined (up to the range
// of the precision) and must be equal. When Fig. 6's R exceeds its step budget (exponential
// in C's let depth) the program is discarded.
template <class S>
Outcome linear_r_agrees(Case<S>& k) {
  const Program& p = k.program();
  auto d = k.differentiation();
  if (!d) return discard("no input to differentiate with respect to");
  const Input& x = d->x;
  Result<S> c = k.trace(p.term, p.inputs);
  if (c.state == Result<S>::Resource) return discard(c.reason);
  if (!c.defined()) return both_undefined();
  const CheckConfig& cfg = k.config();
  Result<S> paper_out = attempt<S>([&](Result<S>& r) {
    r.trace = cfg.impl.reverse_deriv(d->w, d->v, x.name, x.type, c.trace, k.names(),
                                     cfg.max_derivative_steps, nullptr);
  });
  Result<S> linear_out = attempt<S>([&](Result<S>& r) {
    r.trace = cfg.impl.linear_reverse_deriv(d->w, d->v, x.name, x.type, c.trace, k.names(),
                                            cfg.max_linear_derivative_steps, nullptr);
  });
  std::string why;
  if (any_resource<S>({&paper_out, &linear_out}, why)) return discard(why);
  Result<S> paper = k.run(paper_out.trace, d->rest);
  Result<S> linear = k.run(linear_out.trace, d->rest);
  if (any_resource<S>({&paper, &linear}, why)) return discard(why);
  if (auto e = disagreement("W.R_V(x. C) => (linear R)", linear, "W.R_V(x. C) => (Fig. 6)", paper,
                            x.type))
    return fail(d->where + "\n" + *e);
  return linear.defined() ? pass() : both_undefined();
}

// The size bound of ad/linear_reverse_deriv.hpp on the trace of M.
template <class S>
Outcome linear_r_size(Case<S>& k) {
  const Program& p = k.program();
  auto d = k.differentiation();
  if (!d) return discard("no input to differentiate with respect to");
  const Input& x = d->x;
  k.use_linear_r();
  Result<S> c = k.trace(p.term, p.inputs);
  if (c.state == Result<S>::Resource) return discard(c.reason);
  if (!c.defined()) return both_undefined();
  Result<S> out =
      attempt<S>([&](Result<S>& r) { r.trace = k.reverse(d->w, d->v, x.name, x.type, c.trace); });
  if (!out.defined()) return discard(out.reason);
  double sc = weighted_term_size(c.trace), sv = weighted_term_size(d->v),
         sw = weighted_term_size(d->w), sr = weighted_term_size(out.trace);
  double bound = kLinearReverseSizeFactor * (sc + sv + sw);
  if (!(sr <= bound)) {
    std::ostringstream o;
    o << d->where << "\n|W.R_V(x. C)| = " << sr << " > " << kLinearReverseSizeFactor
      << " * (|C| + |V| + |W|) = " << kLinearReverseSizeFactor << " * (" << sc << " + " << sv
      << " + " << sw << ") = " << bound;
    return fail(o.str());
  }
  return pass();
}

// U.fd_V(x:T. M) = U.rd_{0}(y. y.rd_V(x:T. M)) (Sec. 2), every rd through the linear R,
// against the central difference (M(V + hU) - M(V - hU)) / 2h in 50 (or 100) digits at two
// step sizes; the estimate is used only if the two agree.
template <class S>
Outcome linear_r_nested(Case<S>& k) {
  const Program& p = k.program();
  k.use_linear_r();
  auto f = k.forward_derivative();
  if (!f) return discard("no input to differentiate with respect to");
  const Input& x = f->x;
  const std::vector<Input>& rest = f->rest;
  const Value<S>&a = f->a, &dir = f->tangent;
  Type u = p.term.type();
  Result<S> op = k.run(f->fd, rest);
  Result<S> m = at_shift(k, x, rest, a, dir, S(0));
  std::string why;
  if (any_resource<S>({&op, &m}, why)) return discard(why);
  // Where M is undefined at V, so is its derivative (the trace of M at V does not exist).
  if (m.bottom()) {
    if (op.defined())
      return fail("M is undefined at V (" + m.reason + ") but U.fd_V(x. M) => " + show(op, u));
    return both_undefined();
  }
  auto cd = central_differences(k, x, rest, a, dir, why);
  if (!cd) return discard(why);
  if (!converged(*cd)) return discard("the difference quotients have not converged");
  const std::array<Value<S>, 2>& est = *cd;
  const S tol = CentralSteps<S>().tol;
  const std::string& where = f->where;
  bool ok = op.defined() && op.value.size() == est[1].size();
  for (std::size_t r = 0; ok && r < est[1].size(); ++r)
    ok = magnitude(S(est[1][r] - op.value[r])) <= tol * S(1000) * (S(1) + magnitude(est[1][r]));
  if (!ok)
    return fail(where + "\nU.fd_V(x. M) => (linear R) " + show(op, u) +
                "\ncentral differences give " + print_value<S>(u, est[1]));
  return pass();
}

template <class S>
Outcome dispatch(const std::string& name, Case<S>& k) {
  if (name == "type-safety") return type_safety(k);
  if (name == "interpolation") return interpolation(k);
  if (name == "correctness") return correctness(k);
  if (name == "correctness-near") return correctness_near(k);
  if (name == "r-derivative") return r_derivative(k);
  if (name == "completeness") return completeness(k);
  if (name == "forward-via-reverse") return forward_via_reverse(k);
  if (name == "finite-differences") {
    if constexpr (std::is_same_v<S, Mpfr50> || std::is_same_v<S, Mpfr100>) {
      return finite_differences(k);
    } else {
      return discard("finite differences run in 50 or 100 digits");
    }
  }
  if (name == "exact-polynomial") return exact_polynomial(k);
  if (name == "linear-r-agrees") return linear_r_agrees(k);
  if (name == "linear-r-size") return linear_r_size(k);
  if (name == "linear-r-nested") {
    if constexpr (std::is_same_v<S, Mpfr50> || std::is_same_v<S, Mpfr100>) {
      return linear_r_nested(k);
    } else {
      return discard("central differences run in 50 or 100 digits");
    }
  }
  throw InternalError("internal error: unknown property " + name);
}

template <class S>
Outcome run_in(const std::string& name, const Program& program, const CheckConfig& config,
               std::uint64_t case_seed) {
  Case<S> k(program, config, case_seed);
  try {
    return dispatch(name, k);
  } catch (const InternalError& e) {
    return fail(std::string("an evaluator failed an internal check: ") + e.what());
  } catch (const StackExhausted& e) {
    return discard(e.what());
  }
}

Precision next_up(Precision p) {
  switch (p) {
    case Precision::Double:
      return Precision::Digits50;
    case Precision::Digits50:
    case Precision::Digits100:
      return Precision::Digits100;
    case Precision::Exact:
      return Precision::Exact;
  }
  return Precision::Digits50;
}

Outcome run_at(Precision prec, const std::string& name, const Program& program,
               const CheckConfig& config, std::uint64_t case_seed) {
  switch (prec) {
    case Precision::Double:
      return run_in<double>(name, program, config, case_seed);
    case Precision::Digits50:
      return run_in<Mpfr50>(name, program, config, case_seed);
    case Precision::Digits100:
      return run_in<Mpfr100>(name, program, config, case_seed);
    case Precision::Exact:
      return run_in<Rational>(name, program, config, case_seed);
  }
  return run_in<double>(name, program, config, case_seed);
}

}  // namespace

GenConfig generator_config(const PropertyInfo& p, unsigned max_size) {
  GenConfig g;
  g.max_size = max_size == 0 ? kDefaultMaxSize : max_size;
  std::string name = p.name;
  if (name == "exact-polynomial") g.polynomial_only = true;
  if (name == "forward-via-reverse") {  // fd nests R twice: R of R's output
    g.max_rd_depth = 0;
    g.max_size = std::max(3u, g.max_size * 2 / 3);
  }
  if (name == "finite-differences" || name == "r-derivative" || name == "linear-r-nested")
    g.max_rd_depth = 2;
  // Properties about derivatives differentiate with respect to an input.
  if (name == "finite-differences" || name == "r-derivative" || name == "forward-via-reverse" ||
      name.rfind("linear-r-", 0) == 0)
    g.min_inputs = 1;
  return g;
}

Outcome run_property(const PropertyInfo& p, const Program& program, const CheckConfig& config,
                     std::uint64_t case_seed) {
  std::string name = p.name;
  Precision prec = config.precision;
  // The finite-difference witness needs 50+ digits; exactness needs rationals.
  if ((name == "finite-differences" || name == "linear-r-nested") &&
      (prec == Precision::Double || prec == Precision::Exact))
    prec = Precision::Digits50;
  if (name == "exact-polynomial") prec = Precision::Exact;
  // The graph computes in double, and must agree bit for bit (no confirmation step).
  if (name == "graph-agrees") return graph_agrees(program, config);
  if (name != "exact-polynomial" && prec == Precision::Exact && !is_polynomial_term(program.term))
    return discard("exact rationals compute only the polynomial fragment");
  Outcome o = run_at(prec, name, program, config, case_seed);
  if (o.verdict != Verdict::Fail || prec == Precision::Exact || prec == Precision::Digits100)
    return o;
  // Confirm in the next precision up: rounding is not a counterexample.
  Outcome confirm = run_at(next_up(prec), name, program, config, case_seed);
  if (confirm.verdict == Verdict::Fail) return o;
  return Outcome{confirm.verdict == Verdict::Discard ? Verdict::Discard : Verdict::Pass,
                 "a disagreement in " + std::string(to_string(prec)) +
                     " precision vanished in the next precision up (rounding)"};
}

}  // namespace checker
}  // namespace adlang
