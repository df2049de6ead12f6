// The linear-r family: the linear R (ad/linear_reverse_deriv.hpp) against Fig. 6's R, its
// size bound, and nested rd through it against central differences.
#include "checker/property_case.hpp"

#include <sstream>

#include "ad/linear_reverse_deriv.hpp"

namespace adlang::checker {

namespace {

// The linear R against Fig. 6's on the trace C of M at rho: both outputs evaluated at rho.
// Every op of C is defined at V (C is M's trace there), so both are defined (up to the range
// of the precision) and must be equal. When Fig. 6's R exceeds its step budget (exponential
// in C's let depth) the program is discarded.
struct LinearRAgrees {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome LinearRAgrees::check(Case<S>& k) {
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
struct LinearRSize {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome LinearRSize::check(Case<S>& k) {
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
struct LinearRNested {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome LinearRNested::check(Case<S>& k) {
  const Program& p = k.program();
  k.use_linear_r();
  auto f = k.forward_derivative();
  if (!f) return discard("no input to differentiate with respect to");
  const Input& x = f->x;
  const std::vector<Input>& rest = f->rest;
  const Value<S>&a = f->a, &dir = f->tangent;
  Type u = p.term.type();
  Result<S> op = k.run(f->fd, rest);
  Result<S> m = k.at_shift(x, rest, a, dir, S(0));
  std::string why;
  if (any_resource<S>({&op, &m}, why)) return discard(why);
  // Where M is undefined at V, so is its derivative (the trace of M at V does not exist).
  if (m.bottom()) {
    if (op.defined())
      return fail("M is undefined at V (" + m.reason + ") but U.fd_V(x. M) => " + show(op, u));
    return both_undefined();
  }
  auto cd = k.central_differences(x, rest, a, dir, why);
  if (!cd) return discard(why);
  if (!numerics::converged(*cd)) return discard("the difference quotients have not converged");
  const std::array<Value<S>, 2>& est = *cd;
  const std::string& where = f->where;
  bool ok = op.defined() && op.value.size() == est[1].size();
  for (std::size_t r = 0; ok && r < est[1].size(); ++r)
    ok = numerics::matches_central_difference(op.value[r], est[1][r]);
  if (!ok)
    return fail(where + "\nU.fd_V(x. M) => (linear R) " + show(op, u) +
                "\ncentral differences give " + print_value<S>(u, est[1]));
  return pass();
}

GenConfig linear_generator(unsigned max_size) {
  GenConfig g = default_generator(max_size);
  g.min_inputs = 1;
  return g;
}

GenConfig linear_nested_generator(unsigned max_size) {
  GenConfig g = linear_generator(max_size);
  g.max_rd_depth = 2;
  return g;
}

}  // namespace

std::vector<PropertyInfo> linear_r_properties() {
  return {
      property_entry<LinearRAgrees>(
          "linear-r-agrees", "linear-r", "Fig. 6",
          "the linear R and Fig. 6's R give the same value where Fig. 6's is feasible",
          PrecisionRule::AsRequested, &linear_generator),
      property_entry<LinearRSize>("linear-r-size", "linear-r", "size bound",
                                  "the linear R's output has at most 24 (|C| + |V| + |W|) nodes",
                                  PrecisionRule::AsRequested, &linear_generator),
      property_entry<LinearRNested>(
          "linear-r-nested", "linear-r", "eq. 6",
          "U.fd_V(x. M) through the linear R agrees with central differences (50 digits)",
          PrecisionRule::AtLeast50Digits, &linear_nested_generator),
  };
}

}  // namespace adlang::checker
