// What every property works with (checker/properties/*.cpp): one generated program in one
// precision, its evaluations as results (a value, the paper's bottom with its reason, or a
// resource limit), and the outcomes a property can give. Internal to the checker.
#pragma once

#include <initializer_list>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "checker/numerics.hpp"
#include "checker/property_registry.hpp"
#include "checker/term_edit.hpp"
#include "lang/diagnostics.hpp"
#include "lang/free_vars.hpp"
#include "lang/printer.hpp"
#include "lang/vector_space.hpp"
#include "semantics/denotational_eval.hpp"
#include "support/resource_budget.hpp"
#include "support/stack.hpp"

namespace adlang::checker {

inline bool is_resource(UndefinedKind k) {
  switch (k) {
    case UndefinedKind::OpDomain:
    case UndefinedKind::Predicate:
    case UndefinedKind::Unfold:
    case UndefinedKind::Repeats:
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
  std::optional<Undefined> bottom_of;  // for Bottom: the exception (kind and location)
  Term trace;                          // for symbolic evaluation and R
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
    r.bottom_of = e;
  } catch (const StackExhausted& e) {
    r.state = Result<S>::Resource;
    r.reason = e.what();
  } catch (const DerivativeTooLarge& e) {
    r.state = Result<S>::Resource;
    r.reason = e.what();
  } catch (const std::bad_alloc&) {
    r.state = Result<S>::Resource;
    r.reason = "out of memory";
  } catch (const BudgetExceeded& e) {
    if (e.kind() == BudgetKind::Time) throw;  // ends the run (adlang check --timeout)
    release_free_memory();
    r.state = Result<S>::Resource;
    r.reason = e.what();
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

inline Outcome fail(std::string what) {
  return Outcome{Verdict::Fail, std::move(what)};
}
inline Outcome discard(std::string why) {
  return Outcome{Verdict::Discard, std::move(why)};
}
inline Outcome pass() {
  return Outcome{Verdict::Pass, ""};
}
inline Outcome both_undefined() {
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

inline std::vector<TypedName> typed(const std::vector<Input>& inputs) {
  std::vector<TypedName> g;
  for (const Input& in : inputs)
    g.push_back(TypedName{in.name, in.type});
  return g;
}

// Compares two results that must agree: both the same bottom-ness, and equal values (up to
// numerics::close).
template <class S>
std::optional<std::string> disagreement(const char* a_name, const Result<S>& a, const char* b_name,
                                        const Result<S>& b, Type t) {
  if (a.defined() != b.defined() || (a.defined() && !numerics::close(a.value, b.value))) {
    return std::string(a_name) + " = " + show(a, t) + "\n" + b_name + " = " + show(b, t);
  }
  return std::nullopt;
}

// Per-program context: names, options, the extra random choices.
template <class S>
class Case {
 public:
  Case(const Program& p, const CheckConfig& c, std::uint64_t case_seed)
      : p_(p), c_(c), ev_(c.impl.get<S>()), case_seed_(case_seed) {
    reserve_program_names(p, names_);
  }

  const Program& program() const { return p_; }
  // Made at the first draw: most properties draw nothing, and seeding a Mersenne twister
  // writes its 312 words.
  Rng& rng() {
    if (!rng_) rng_.emplace(case_seed_, 0x7a11);
    return *rng_;
  }
  void set_derivative_budget(std::uint64_t steps) { derivative_steps_ = steps; }
  NameSupply& names() { return names_; }
  const CheckConfig& config() const { return c_; }
  const Evaluators<S>& evaluators() const { return ev_; }

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
    o.max_rd_trace_nodes = c_.max_trace_nodes;  // one budget for the trace, as it was
    o.max_derivative_steps = linear_ ? c_.max_linear_derivative_steps : derivative_steps_;
    o.ad = linear_ ? AdMode::Linear : AdMode::Paper;
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

  // M => V by the compiled evaluator (semantics/compiled_eval.hpp), differentiating with `ad`.
  Result<S> run_compiled(const Term& m, const std::vector<Input>& inputs, AdMode ad) {
    return attempt<S>([&](Result<S>& r) {
      ValueEnv<S> rho = value_env<S>(inputs);
      EvalOptions o = eval_options();
      o.evaluator = Evaluator::Compiled;
      set_ad(o, ad);
      EvalContext cx(o, names_);
      r.value = ev_.compiled(m, rho, cx);
    });
  }

  // M => V by the reference evaluator, differentiating with `ad`.
  Result<S> run_reference(const Term& m, const std::vector<Input>& inputs, AdMode ad) {
    return attempt<S>([&](Result<S>& r) {
      ValueEnv<S> rho = value_env<S>(inputs);
      EvalOptions o = eval_options();
      set_ad(o, ad);
      EvalContext cx(o, names_);
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
    k = rng().below(static_cast<unsigned>(p_.inputs.size()));
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
    d.w_scalars = random_value(rng(), u);
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
    std::vector<std::string> tangent = random_value(rng(), f.x.type);
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

  // M at a + s*u (u a direction of x's type), over the other inputs: the function whose central
  // differences the finite-difference properties take.
  Result<S> at_shift(const Input& x, const std::vector<Input>& rest, const Value<S>& a,
                     const Value<S>& u, const S& s) {
    Value<S> shifted = a;
    for (std::size_t j = 0; j < a.size(); ++j)
      shifted[j] = a[j] + s * u[j];
    return attempt<S>([&](Result<S>& r) {
      ValueEnv<S> rho = value_env<S>(rest);
      rho.push(x.name, shifted);
      EvalContext cx(eval_options(), names_);
      r.value = ev_.ordinary(p_.term, rho, nullptr, cx);
    });
  }

  // numerics::central_differences of M along u at a; nullopt (with `why`) where M is
  // undefined within h of a.
  std::optional<std::array<Value<S>, 2>> central_differences(const Input& x,
                                                             const std::vector<Input>& rest,
                                                             const Value<S>& a, const Value<S>& u,
                                                             std::string& why) {
    return numerics::central_differences<S>([&](const S& s) -> std::optional<Value<S>> {
      Result<S> r = at_shift(x, rest, a, u, s);
      if (r.defined()) return std::move(r.value);
      why = "M is undefined within h of V: " + r.reason;
      return std::nullopt;
    });
  }

 private:
  void set_ad(EvalOptions& o, AdMode ad) const {
    o.ad = ad;
    o.reverse_deriv = ad == AdMode::Paper ? c_.impl.reverse_deriv : c_.impl.linear_reverse_deriv;
    o.max_derivative_steps =
        ad == AdMode::Paper ? derivative_steps_ : c_.max_linear_derivative_steps;
  }

  const Program& p_;
  const CheckConfig& c_;
  const Evaluators<S>& ev_;
  const std::uint64_t case_seed_;
  std::optional<Rng> rng_;
  NameSupply names_;
  std::uint64_t derivative_steps_ = c_.max_derivative_steps;
  bool linear_ = c_.linear_r;
};

}  // namespace adlang::checker
