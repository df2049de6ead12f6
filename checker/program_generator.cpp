#include "checker/program_generator.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <string>

#include "lang/diagnostics.hpp"
#include "lang/printer.hpp"
#include "lang/resolve.hpp"
#include "lang/vector_space.hpp"
#include "lang/verifier.hpp"

namespace adlang::checker {

namespace {

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

Rng::Rng(std::uint64_t seed, std::uint64_t index)
    : engine_(splitmix(splitmix(seed) ^ splitmix(index + 0x51ed270b27d8a3ULL))) {}

namespace {

// Decimals with few digits: exact in every precision's reading, and sums and products of
// them stay short in exact mode.
std::string random_real_text(Choices& rng) {
  static const char* const kNice[] = {"0",  "1",    "2",     "-1",   "0.5", "-0.5",  "1.5",
                                      "-2", "0.25", "-1.25", "0.75", "3",   "-0.75", "1.25"};
  if (rng.chance(0.5)) return kNice[rng.below(sizeof kNice / sizeof kNice[0])];
  int eighths = static_cast<int>(rng.below(49)) - 24;  // [-3, 3] in steps of 1/8
  double v = eighths / 8.0;
  std::string s = std::to_string(v);  // e.g. "-1.375000"
  while (!s.empty() && s.back() == '0')
    s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

struct ScopedVar {
  Name name;
  Type type;
  std::vector<std::string> value;  // known value (inputs), else empty
};

struct FunSig {
  Name name;
  Type param, result;
  bool counted;          // param = real * A: a counter that must start small
  bool callable = true;  // false: in scope (it hides outer functions of its name) but not called
};

class Generator {
 public:
  Generator(Choices& rng, const GenConfig& c) : rng_(rng), c_(c) {}

  Program program(std::optional<Type> want = std::nullopt) {
    Program p;
    unsigned n_inputs = c_.min_inputs + rng_.below(c_.max_inputs + 1 - c_.min_inputs);
    static const char* const kInputNames[] = {"x", "v", "w"};
    for (unsigned i = 0; i < n_inputs; ++i) {
      Type t = rng_.chance(0.7) ? Type::real() : random_type(rng_, 1);
      Input in{Name(kInputNames[i]), t, random_value(rng_, t)};
      p.inputs.push_back(in);
      gamma_.push_back(ScopedVar{in.name, in.type, in.scalars});
    }
    Type result = want ? *want : rng_.chance(0.6) ? Type::real() : random_type(rng_, 2);
    unsigned size = 2 + rng_.below(c_.max_size > 2 ? c_.max_size - 1 : 1);
    if (c_.rd_main && c_.max_rd_depth > 0 && rng_.chance(0.6)) {
      p.term = rd(result, size);
    } else if (c_.recursion && rng_.chance(0.12)) {
      p.term = mutual_group(result, size);
    } else {
      p.term = gen(result, size);
    }
    // Resolved like the front end's output, and verified (lang/verifier.hpp): every program
    // adlang check and the property tests run is well formed by Fig. 1.
    p.term = resolve_functions(p.term);
    std::vector<TypedName> typed;
    for (const Input& in : p.inputs)
      typed.push_back(TypedName{in.name, in.type});
    verify_ir(p.term, typed, FunIds::Resolved);
    return p;
  }

  // A trace term of type t over the variables `vars` (no if, letrec, call or rd).
  Term trace_term(Type t, const std::vector<TypedName>& vars) {
    trace_only_ = true;
    for (const TypedName& v : vars)
      gamma_.push_back(ScopedVar{v.name, v.type, {}});
    unsigned size = 2 + rng_.below(c_.max_size > 2 ? c_.max_size - 1 : 1);
    return gen(t, size);
  }

 private:
  Choices& rng_;
  const GenConfig& c_;
  std::vector<ScopedVar> gamma_;
  std::vector<FunSig> phi_;
  unsigned rd_depth_ = 0;
  unsigned fresh_ = 0;
  bool trace_only_ = false;  // only trace-term forms (Sec. 3)

  Name fresh(const char* base) { return Name(std::string(base) + std::to_string(++fresh_)); }

  Term literal() {
    // Sometimes the value of an input: ties with the program's own values.
    if (rng_.chance(0.15)) {
      for (const ScopedVar& v : gamma_)
        if (v.type.is_real() && !v.value.empty() && rng_.chance(0.5))
          return mk::literal(v.value[0]);
    }
    return mk::literal(random_real_text(rng_));
  }

  std::vector<const ScopedVar*> vars_of(Type t) {
    std::vector<const ScopedVar*> out;
    for (const ScopedVar& v : gamma_)
      if (v.type == t) out.push_back(&v);
    return out;
  }

  Term leaf(Type t) {
    std::vector<const ScopedVar*> vs = vars_of(t);
    if (!vs.empty() && rng_.chance(0.65)) {
      const ScopedVar* v = vs[rng_.below(static_cast<unsigned>(vs.size()))];
      return mk::var(v->name, v->type);
    }
    switch (t.kind()) {
      case TypeKind::Real:
        return literal();
      case TypeKind::Unit:
        return mk::unit();
      case TypeKind::Pair: {
        Term a = leaf(t.first());
        Term b = leaf(t.second());
        return mk::pair(a, b);
      }
    }
    throw InternalError("internal error: unknown type kind");
  }

  // Splits a budget between k children.
  unsigned part(unsigned size, unsigned k) { return std::max(1u, (size - 1) / k); }

  Term with_var(Name x, Type t, const std::function<Term()>& body,
                std::vector<std::string> value = {}) {
    gamma_.push_back(ScopedVar{x, t, std::move(value)});
    Term b = body();
    gamma_.pop_back();
    return b;
  }

  Term gen(Type t, unsigned size) {
    if (size <= 1) return leaf(t);
    enum Form { kAdd, kUnary, kBinary, kDot, kScale, kPair, kProj, kLet, kIf, kCall, kRd, kLetRec };
    std::vector<std::pair<Form, unsigned>> forms;  // form, weight
    if (t.is_real()) {
      forms.insert(forms.end(), {{kAdd, 3}, {kUnary, 4}, {kBinary, 5}, {kDot, 1}});
    }
    if (t.is_pair()) forms.push_back({kPair, 6});
    if (t.real_power_exponent() >= 2 || t.is_real()) forms.push_back({kScale, 1});
    forms.insert(forms.end(), {{kProj, 2}, {kLet, 3}});
    if (!trace_only_ && c_.conditionals) forms.push_back({kIf, 3});
    if (!trace_only_ && rd_depth_ < c_.max_rd_depth) forms.push_back({kRd, c_.rd_weight});
    if (!trace_only_ && c_.recursion) {
      forms.push_back({kLetRec, 2});
      std::vector<Name> seen;
      for (std::size_t i = phi_.size(); i-- > 0;) {
        if (std::find(seen.begin(), seen.end(), phi_[i].name) != seen.end()) continue;
        seen.push_back(phi_[i].name);
        if (phi_[i].callable && phi_[i].result == t) {
          forms.push_back({kCall, 3});
          break;
        }
      }
    }
    unsigned total = 0;
    for (auto& f : forms)
      total += f.second;
    unsigned r = rng_.below(total);
    Form form = forms.back().first;
    for (auto& f : forms) {
      if (r < f.second) {
        form = f.first;
        break;
      }
      r -= f.second;
    }
    switch (form) {
      case kAdd:
        return mk::add(gen(t, part(size, 2)), gen(t, part(size, 2)));
      case kUnary:
        return unary(size);
      case kBinary: {
        // The table's operators real * real -> real (all polynomial).
        std::vector<Op> ops = table_ops(Type::pair(Type::real(), Type::real()));
        Op op = ops[rng_.below(static_cast<unsigned>(ops.size()))];
        Term a = gen(t, part(size, 2));
        Term b = gen(t, part(size, 2));
        // Division by a difference that can be exactly 0 (the operator outside its domain).
        if (op.domain() == OpDomain::NonzeroDenominator && rng_.chance(0.2))
          b = mk::op(Op::make(OpKind::Sub), b, literal());
        return mk::op(op, a, b);
      }
      case kDot: {
        unsigned n = 1 + rng_.below(3);
        Type v = Type::real_power(n);
        return mk::op(Op::make(OpKind::Dot, n), gen(v, part(size, 2)), gen(v, part(size, 2)));
      }
      case kScale: {
        unsigned n = t.is_real() ? 1 : static_cast<unsigned>(t.real_power_exponent());
        return mk::op(Op::make(OpKind::Scale, n), gen(Type::real(), part(size, 2)),
                      gen(t, part(size, 2)));
      }
      case kPair:
        return mk::pair(gen(t.first(), part(size, 2)), gen(t.second(), part(size, 2)));
      case kProj: {
        Type other = random_type(rng_, 1);
        if (rng_.chance(0.5)) return mk::fst(gen(Type::pair(t, other), size - 1));
        return mk::snd(gen(Type::pair(other, t), size - 1));
      }
      case kLet: {
        Type u = rng_.chance(0.6) ? Type::real() : random_type(rng_, 1);
        Term bound = gen(u, part(size, 2));
        Name x = fresh("y");
        Term body = with_var(x, u, [&] { return gen(t, part(size, 2)); });
        return mk::let(x, u, bound, body);
      }
      case kIf: {
        BoolTerm g = guard(part(size, 3));
        return mk::if_(g, gen(t, part(size, 3)), gen(t, part(size, 3)));
      }
      case kCall: {
        // The innermost binding of each name: an inner letrec hides outer functions of the
        // same name, whatever their type.
        std::vector<const FunSig*> fs;
        std::vector<Name> seen;
        for (std::size_t i = phi_.size(); i-- > 0;) {
          const FunSig& f = phi_[i];
          if (std::find(seen.begin(), seen.end(), f.name) != seen.end()) continue;
          seen.push_back(f.name);
          if (f.callable && f.result == t) fs.push_back(&f);
        }
        // A copy: generating the argument may add functions to phi_ (and move its elements).
        const FunSig f = *fs[rng_.below(static_cast<unsigned>(fs.size()))];
        Term arg = call_argument(f, size - 1);
        return mk::call(f.name, f.param, f.result, arg);
      }
      case kRd:
        return rd(t, size);
      case kLetRec:
        return letrec(t, size);
    }
    throw InternalError("internal error: unknown generator form");
  }

  Term call_argument(const FunSig& f, unsigned size) {
    if (!f.counted) return gen(f.param, size);
    // A small counter k + 0.25 (k = 0..3) keeps recursion short and off the boundary 0.5.
    static const char* const kCounters[] = {"0.25", "1.25", "2.25", "3.25"};
    Term counter = mk::literal(kCounters[rng_.below(4)]);
    return mk::pair(counter, gen(f.param.second(), size));
  }

  // The operator table's scalar operators (result real) with argument type `arg`, in table
  // order; only the polynomial ones when the configuration asks for them.
  std::vector<Op> table_ops(Type arg) const {
    std::vector<Op> ops;
    for (Op op : Op::all(0))
      if (op.arg_type() == arg && op.result_type().is_real() &&
          (!c_.polynomial_only || op.is_polynomial()))
        ops.push_back(op);
    return ops;
  }

  Term unary(unsigned size) {
    // The table's operators real -> real (lang/op.hpp), polynomial ones only if asked: a new
    // operator is generated without a change here.
    std::vector<Op> ops = table_ops(Type::real());
    Op op = ops[rng_.below(static_cast<unsigned>(ops.size()))];
    return mk::op(op, gen(Type::real(), size - 1));
  }

  BoolTerm guard(unsigned size) {
    std::vector<Pred> ps = Pred::all();
    Pred p = ps[rng_.below(static_cast<unsigned>(ps.size()))];
    if (rng_.chance(0.05)) return mk::bool_const(rng_.chance(0.5));
    // A tie on purpose: an input compared with its own value, or a term with itself.
    if (rng_.chance(0.3)) {
      std::vector<const ScopedVar*> known;
      for (const ScopedVar& v : gamma_)
        if (v.type.is_real() && !v.value.empty()) known.push_back(&v);
      if (!known.empty()) {
        const ScopedVar* v = known[rng_.below(static_cast<unsigned>(known.size()))];
        Term a = mk::var(v->name, v->type), b = mk::literal(v->value[0]);
        return rng_.chance(0.5) ? mk::pred(p, mk::pair(a, b)) : mk::pred(p, mk::pair(b, a));
      }
      Term a = gen(Type::real(), size);
      return mk::pred(p, mk::pair(a, a));
    }
    Term a = gen(Type::real(), part(size, 2));
    Term b = gen(Type::real(), part(size, 2));
    return mk::pred(p, mk::pair(a, b));
  }

  // W.rd_L(y:T. N) : T, with N : U for a random U.
  Term rd(Type t, unsigned size) {
    Type u = rng_.chance(0.6) ? Type::real() : random_type(rng_, 1);
    Name y = fresh("z");
    Term point = gen(t, part(size, 4));
    Term cot = gen(u, part(size, 4));
    ++rd_depth_;
    Term body = with_var(y, t, [&] { return gen(u, std::max(2u, size / 2)); });
    --rd_depth_;
    return mk::rd(cot, point, y, t, body);
  }

  // M.fd_L(x:T. N) : U as the front end spells it (Sec. 2): M.rd_{0_U}(y:U. y.rd_L(x:T. N)).
  Term forward_mode(Type u, unsigned size) {
    Type t = rng_.chance(0.4) ? Type::unit() : random_type(rng_, 1);
    Name x = fresh("z"), y = fresh("z");
    Term m = gen(t, part(size, 4));
    Term l = gen(t, part(size, 4));
    rd_depth_ += 2;
    Term n = with_var(x, t, [&] { return gen(u, std::max(2u, size / 2)); });
    rd_depth_ -= 2;
    return mk::rd(m, make_zero(u), y, u, mk::rd(mk::var(y, u), l, x, t, n));
  }

  Name function_name() {
    static const char* const kPool[] = {"f", "g", "h"};
    return Name(kPool[rng_.below(3)]);
  }

  // A function body: only the parameter is in scope (Fig. 1).
  Term function_body(Name param, Type pt, Type u, unsigned size,
                     const std::function<Term()>& make) {
    std::vector<ScopedVar> saved;
    saved.swap(gamma_);
    gamma_.push_back(ScopedVar{param, pt, {}});
    unsigned saved_depth = rd_depth_;
    Term body = make();
    rd_depth_ = saved_depth;
    gamma_.swap(saved);
    (void)u;
    (void)size;
    return body;
  }

  // if fst p < 0.5 then BASE else let r = <recursive call> in STEP, the call being
  // callee((fst p - 1, E)) or, through a derivative, W.rd_{snd p}(y:A. callee((fst p - 1, y))).
  // Sometimes, as in the thesis's ack, the else side is itself a conditional with a call in
  // tail position: if G then callee((fst p - 1, E)) else <the let above, or another tail call>.
  Term counted_body(Name param, Type pt, Type u, Name callee, Type callee_result, unsigned size) {
    Term p = mk::var(param, pt);
    Term counter = mk::fst(p);
    BoolTerm stop = mk::pred(Pred::make(PredKind::Lt), mk::pair(counter, mk::literal("0.5")));
    Term base = gen(u, part(size, 3));
    Term next = mk::op(Op::make(OpKind::Sub), mk::fst(p), mk::literal("1"));
    Type a = pt.second();
    Term rec;
    Type rt;
    if (rd_depth_ < c_.max_rd_depth && rng_.chance(0.35)) {
      Name y = fresh("z");
      Term call = mk::call(callee, pt, callee_result, mk::pair(next, mk::var(y, a)));
      Term cot = gen(callee_result, 1);
      rec = mk::rd(cot, mk::snd(p), y, a, call);
      rt = a;
    } else {
      Term e = gen(a, part(size, 4));
      rec = mk::call(callee, pt, callee_result, mk::pair(next, e));
      rt = callee_result;
    }
    Name r = fresh("r");
    Term step = with_var(r, rt, [&] {
      if (c_.rd_in_step > 0 && rd_depth_ + 2 <= c_.max_rd_depth && rng_.chance(c_.rd_in_step))
        return forward_mode(u, part(size, 3));
      return gen(u, part(size, 3));
    });
    Term recursive = mk::let(r, rt, rec, step);
    if (callee_result == u && rng_.chance(0.25)) {
      // (The let, and so an rd in it, stays as often as not: the tail calls do not replace the
      // derivatives graph-rd-agrees needs.)
      BoolTerm g = guard(part(size, 3));
      Term tail = mk::call(callee, pt, callee_result, mk::pair(next, gen(a, part(size, 4))));
      Term other = rng_.chance(0.5)
                       ? mk::call(callee, pt, callee_result, mk::pair(next, gen(a, part(size, 4))))
                       : recursive;
      recursive = rng_.chance(0.5) ? mk::if_(g, tail, other) : mk::if_(g, other, tail);
    }
    return mk::if_(stop, base, recursive);
  }

  Term letrec(Type t, unsigned size) {
    Name f = function_name();
    bool counted = rng_.chance(0.6);
    Type a = rng_.chance(0.7) ? Type::real() : random_type(rng_, 1);
    Type pt = counted ? Type::pair(Type::real(), a) : a;
    Type u = rng_.chance(0.75) ? Type::real() : random_type(rng_, 1);
    Name x = fresh("p");
    phi_.push_back(FunSig{f, pt, u, counted});
    Term body;
    if (counted) {
      body = function_body(x, pt, u, size,
                           [&] { return counted_body(x, pt, u, f, u, part(size, 2)); });
    } else if (rng_.chance(0.03)) {
      // Divergent: f(p) = f(p) (undefined at every approximant; bottom on both sides).
      body = mk::call(f, pt, u, mk::var(x, pt));
    } else {
      // Not recursive: f is in scope in its own body (it hides any outer f) but not called.
      phi_.back().callable = false;
      body = function_body(x, pt, u, size, [&] { return gen(u, part(size, 2)); });
      phi_.back().callable = true;
    }
    FunDef def{f, x, pt, u, body, {}};
    Term rest;
    // Sometimes rebind a name the body's functions use: a closure must keep the function
    // environment of its definition (clo_phi), not the caller's.
    if (rng_.chance(0.25)) {
      Name g = function_name();
      if (g == f) g = Name(f.str() == "f" ? "g" : "f");
      Type gt = pt;
      Name gx = fresh("p");
      Term gbody = function_body(gx, gt, u, size, [&] {
        return mk::call(
            f, pt, u,
            counted ? mk::pair(mk::literal("1.25"), mk::snd(mk::var(gx, gt))) : mk::var(gx, gt));
      });
      FunDef gdef{g, gx, gt, u, gbody, {}};
      phi_.push_back(FunSig{g, gt, u, false});
      // Shadow f with a different function of the same type, then call g.
      Name sx = fresh("p");
      Term shadow_body = function_body(sx, pt, u, size, [&] { return gen(u, 2); });
      FunDef shadow{f, sx, pt, u, shadow_body, {}};
      phi_.push_back(FunSig{f, pt, u, false});
      // The call of g and what follows are inside both letrecs: phi_ says so.
      Term call_g = mk::call(g, gt, u, call_argument(FunSig{g, gt, u, counted}, 2));
      Name r = fresh("r");
      Term use = with_var(r, u, [&] { return gen(t, part(size, 2)); });
      phi_.pop_back();
      phi_.pop_back();
      rest = mk::letrec({gdef}, mk::letrec({shadow}, mk::let(r, u, call_g, use)));
    } else {
      rest = gen(t, part(size, 2));
    }
    phi_.pop_back();
    return mk::letrec({def}, rest);
  }

  // Mutually recursive top-level group: f calls g, g calls f, with one shared counter.
  Term mutual_group(Type t, unsigned size) {
    Type a = Type::real();
    Type pt = Type::pair(Type::real(), a);
    Type u = Type::real();
    Name f("f"), g("g");
    Name fx = fresh("p"), gx = fresh("p");
    phi_.push_back(FunSig{f, pt, u, true});
    phi_.push_back(FunSig{g, pt, u, true});
    Term fb = function_body(fx, pt, u, size,
                            [&] { return counted_body(fx, pt, u, g, u, part(size, 3)); });
    Term gb = function_body(gx, pt, u, size,
                            [&] { return counted_body(gx, pt, u, f, u, part(size, 3)); });
    Term body = gen(t, part(size, 2));
    phi_.pop_back();
    phi_.pop_back();
    return mk::letrec({FunDef{f, fx, pt, u, fb, {}}, FunDef{g, gx, pt, u, gb, {}}}, body);
  }
};

}  // namespace

Type random_type(Choices& rng, unsigned depth) {
  unsigned r = rng.below(depth == 0 ? 2 : 10);
  if (r == 0 || depth == 0) return r == 1 ? Type::unit() : Type::real();
  switch (r) {
    case 1:
      return Type::unit();
    case 2:
    case 3:
    case 4:
      return Type::pair(Type::real(), Type::real());
    case 5:
      return Type::real_power(3);
    case 6:
      return Type::pair(random_type(rng, depth - 1), random_type(rng, depth - 1));
    default:
      return Type::real();
  }
}

std::vector<std::string> random_value(Choices& rng, Type t) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < t.size(); ++i)
    out.push_back(random_real_text(rng));
  return out;
}

Program generate_program(Choices& choices, const GenConfig& config, std::optional<Type> result) {
  return Generator(choices, config).program(result);
}

Program generate_program(std::uint64_t seed, std::uint64_t index, const GenConfig& config) {
  Rng rng(seed, index);
  return generate_program(rng, config);
}

Term generate_trace_term(Choices& choices, Type t, const std::vector<TypedName>& vars,
                         const GenConfig& config) {
  return Generator(choices, config).trace_term(t, vars);
}

}  // namespace adlang::checker
