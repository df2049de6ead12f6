// The evaluation family: the evaluators against each other (Props. 3.3-3.6, Thms. 6.2, 6.7),
// and exactly so on the polynomial fragment in rationals.
#include "checker/property_case.hpp"

namespace adlang::checker {

namespace {

struct TypeSafety {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome TypeSafety::check(Case<S>& k) {
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

struct Interpolation {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome Interpolation::check(Case<S>& k) {
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

struct Correctness {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome Correctness::check(Case<S>& k) {
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

struct CorrectnessNear {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome CorrectnessNear::check(Case<S>& k) {
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
  for (const S& h : numerics::near_scales<S>()) {
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

struct Completeness {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome Completeness::check(Case<S>& k) {
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

struct ExactPolynomial {
  template <class S>
  static Outcome check(Case<S>& k);
};

template <class S>
Outcome ExactPolynomial::check(Case<S>& k) {
  Outcome o = Correctness::check(k);
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

GenConfig polynomial_generator(unsigned max_size) {
  GenConfig g = default_generator(max_size);
  g.polynomial_only = true;
  return g;
}

}  // namespace

std::vector<PropertyInfo> evaluation_properties() {
  const PrecisionRule any = PrecisionRule::AsRequested;
  return {
      property_entry<TypeSafety>(
          "type-safety", "evaluation", "Prop. 3.6, Prop. 3.3",
          "values and traces have the program's type; R's output has the point's type", any,
          &default_generator),
      property_entry<Interpolation>("interpolation", "evaluation", "Prop. 3.5",
                                    "M => V iff M ~> C and C => V", any, &default_generator),
      property_entry<Correctness>("correctness", "evaluation", "Thm. 6.2 (1)",
                                  "M => V implies [[M]] = V", any, &default_generator),
      property_entry<CorrectnessNear>("correctness-near", "evaluation", "Thm. 6.2 (2)",
                                      "M ~> C implies [[M]] = [[C]] at rho and near rho", any,
                                      &default_generator),
      property_entry<Completeness>(
          "completeness", "evaluation", "Thm. 6.7, Lemmas 6.5-6.6",
          "in letrec_n: M terminates iff [[M]] is defined, with equal values", any,
          &default_generator),
      property_entry<ExactPolynomial>(
          "exact-polynomial", "evaluation", "Thm. 6.2 on rationals",
          "operational = denotational exactly on the polynomial fragment", PrecisionRule::ExactOnly,
          &polynomial_generator),
  };
}

}  // namespace adlang::checker
