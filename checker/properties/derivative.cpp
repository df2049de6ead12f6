// The derivative family: R is the derivative (Thm. 6.1, Cor. 6.3), forward via reverse (eq. 6),
// and a finite-difference witness.
#include "checker/property_case.hpp"

#include <algorithm>

namespace adlang::checker {

namespace {

struct RDerivative {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome RDerivative::check(Case<S>& k) {
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

struct ForwardViaReverse {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome ForwardViaReverse::check(Case<S>& k) {
  const Program& p = k.program();
  // R of R's output: the paper's R is exponential in let depth (docs/design.md Sec. 6). Programs
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

// Central differences in 50 (or 100) digits, at two step sizes: the estimate is used only if
// the two agree (the difference quotient has converged), otherwise the program is discarded.
struct FiniteDifferences {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome FiniteDifferences::check(Case<S>& k) {
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
    auto col = k.central_differences(x, rest, a, e, why);
    if (!col) return discard(why);
    for (int n = 0; n < 2; ++n) {
      S dot(0);
      for (std::size_t r = 0; r < wv.size(); ++r)
        dot = dot + wv[r] * (*col)[n][r];
      grad[n][j] = dot;
    }
  }
  if (!numerics::converged(grad)) return discard("the difference quotients have not converged");
  const Value<S>& fd2 = grad[1];
  Result<S> fd;
  fd.value = fd2;
  for (std::size_t j = 0; j < a.size(); ++j) {
    if (!op.defined() || !numerics::matches_central_difference(op.value[j], fd2[j]))
      return fail(d->where + "\nW.rd_V(x. M) => " + show(op, x.type) +
                  "\ncentral differences give " + print_value<S>(x.type, fd.value));
  }
  return pass();
}

// Properties about derivatives differentiate with respect to an input.
GenConfig derivative_generator(unsigned max_size) {
  GenConfig g = default_generator(max_size);
  g.min_inputs = 1;
  return g;
}

// rd nested at most twice: the finite-difference witness and R's output stay cheap.
GenConfig shallow_rd_generator(unsigned max_size) {
  GenConfig g = derivative_generator(max_size);
  g.max_rd_depth = 2;
  return g;
}

// fd nests R twice (R of R's output): no rd inside M, and smaller programs.
GenConfig forward_generator(unsigned max_size) {
  GenConfig g = derivative_generator(max_size);
  g.max_rd_depth = 0;
  g.max_size = std::max(3u, g.max_size * 2 / 3);
  return g;
}

}  // namespace

std::vector<PropertyInfo> derivative_properties() {
  return {
      property_entry<RDerivative>("r-derivative", "derivative", "Thm. 6.1, Cor. 6.3",
                                  "[[W.R_V(x. C)]] = [[W.rd_V(x. C)]] = [[W.rd_V(x. M)]]",
                                  PrecisionRule::AsRequested, &shallow_rd_generator),
      property_entry<ForwardViaReverse>("forward-via-reverse", "derivative", "eq. 6",
                                        "U.fd_V(x. M) equals the dual-number derivative",
                                        PrecisionRule::AsRequested, &forward_generator),
      property_entry<FiniteDifferences>(
          "finite-differences", "derivative", "third witness",
          "central differences (50 digits) agree with operational and denotational rd",
          PrecisionRule::AtLeast50Digits, &shallow_rd_generator),
  };
}

}  // namespace adlang::checker
