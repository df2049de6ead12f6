#include "checker/program_generator.hpp"

#include <algorithm>
#include <functional>

#include "lang/diagnostics.hpp"
#include "lang/printer.hpp"

namespace adlang::gen {

namespace {

const char* const kVarPool[] = {"x", "y", "z", "a", "b", "w"};
const char* const kFunPool[] = {"f", "g", "h"};
const char* const kInputPool[] = {"u", "v", "t", "s"};
const char* const kLiterals[] = {"0", "1", "-1", "0.5", "2", "-0.5", "1.5", "3", "0.25", "-2"};

int pick(int n) {
  return n <= 1 ? 0 : *rc::gen::inRange(0, n);
}
bool chance(int percent) {
  return *rc::gen::inRange(0, 100) < percent;
}

struct FunSig {
  Name name;
  Type param, result;
};

// The generation state of one program: variables and functions in scope.
class Builder {
 public:
  explicit Builder(const GenConfig& cfg) : cfg_(cfg) {}

  Type random_type(int depth) {
    int n = depth <= 0 ? 2 : 6;
    switch (pick(n)) {
      case 0:
        return Type::real();
      case 1:
        return chance(70) ? Type::real() : Type::unit();
      case 2:
        return Type::pair(Type::real(), Type::real());
      case 3:
        return Type::real_power(std::min<unsigned>(3, cfg_.max_vector));
      case 4:
        return Type::pair(random_type(depth - 1), random_type(depth - 1));
      default:
        return Type::real();
    }
  }

  std::string literal_text() {
    if (chance(70)) return kLiterals[pick(std::size(kLiterals))];
    int k = *rc::gen::inRange(-24, 25);
    return eighths(k);
  }

  static std::string eighths(int k) {
    // k/8 as an exact decimal.
    bool neg = k < 0;
    int a = neg ? -k : k;
    int whole = a / 8, frac = (a % 8) * 125;  // thousandths
    std::string s = std::to_string(whole);
    if (frac) {
      std::string f = std::to_string(frac);
      f.insert(0, 3 - f.size(), '0');
      while (!f.empty() && f.back() == '0')
        f.pop_back();
      s += "." + f;
    }
    return (neg && (whole || frac)) ? "-" + s : s;
  }

  // Whether the variable at index i is hidden by a later binding of the same name.
  bool shadowed(std::size_t i) const {
    for (std::size_t j = i + 1; j < vars_.size(); ++j)
      if (vars_[j].name == vars_[i].name) return true;
    return false;
  }

  Term leaf(Type t) {
    std::vector<TypedName> candidates;
    for (std::size_t i = var_floor_; i < vars_.size(); ++i)
      if (vars_[i].type == t && !shadowed(i)) candidates.push_back(vars_[i]);
    if (!candidates.empty() && chance(60)) {
      const TypedName& v = candidates[pick(static_cast<int>(candidates.size()))];
      return mk::var(v.name, v.type);
    }
    switch (t.kind()) {
      case TypeKind::Real:
        return mk::literal(literal_text());
      case TypeKind::Unit:
        return mk::unit();
      case TypeKind::Pair:
        return mk::pair(leaf(t.first()), leaf(t.second()));
    }
    throw InternalError("internal error: unknown type kind");
  }

  // A term of type t. Alternative 0 is always a leaf, so shrinking simplifies.
  Term term(Type t, int depth, bool trace_only = false) {
    if (depth <= 0) return leaf(t);
    std::vector<std::function<Term()>> forms;
    forms.push_back([&] { return leaf(t); });
    if (t.is_real()) {
      forms.push_back(
          [&] { return mk::add(term(t, depth - 1, trace_only), term(t, depth - 1, trace_only)); });
      forms.push_back([&] { return op_app(t, depth, trace_only); });
      forms.push_back([&] { return op_app(t, depth, trace_only); });
    }
    if (t.is_pair()) {
      forms.push_back([&] {
        return mk::pair(term(t.first(), depth - 1, trace_only),
                        term(t.second(), depth - 1, trace_only));
      });
      if (t.real_power_exponent() >= 2)
        forms.push_back([&] { return op_app(t, depth, trace_only); });
    }
    forms.push_back([&] { return let(t, depth, trace_only); });
    forms.push_back([&] {
      Type other = random_type(1);
      bool first = chance(50);
      Type p = first ? Type::pair(t, other) : Type::pair(other, t);
      Term arg = term(p, depth - 1, trace_only);
      return first ? mk::fst(arg) : mk::snd(arg);
    });
    if (!trace_only) {
      if (cfg_.conditionals) forms.push_back([&] { return conditional(t, depth); });
      if (cfg_.recursion) forms.push_back([&] { return letrec(t, depth); });
      if (has_function_returning(t)) forms.push_back([&] { return call(t, depth); });
      if (cfg_.differentiation && rd_depth_ < cfg_.max_rd_nesting)
        forms.push_back([&] { return rd(t, depth); });
    }
    return forms[pick(static_cast<int>(forms.size()))]();
  }

  BoolTerm guard(int depth) {
    if (chance(10)) return mk::bool_const(chance(50));
    Pred p = Pred::all()[pick(5)];
    Term a = term(Type::real(), depth);
    // Ties on purpose: uniform random reals never make the two sides equal.
    Term b = chance(15) ? a : term(Type::real(), depth);
    return mk::pred(p, mk::pair(a, b));
  }

  std::vector<TypedName> vars_;
  std::vector<FunSig> funs_;
  std::size_t var_floor_ = 0;  // variables below are outside the current function body
  int rd_depth_ = 0;

 private:
  const GenConfig& cfg_;

  Name var_name() { return Name(kVarPool[pick(std::size(kVarPool))]); }

  Term op_app(Type t, int depth, bool trace_only) {
    std::vector<Op> ops;
    if (t.is_real()) {
      for (OpKind k :
           {OpKind::Neg, OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::Div, OpKind::Sin,
            OpKind::Cos, OpKind::Exp, OpKind::Log, OpKind::Sqrt, OpKind::Tanh, OpKind::Sigmoid}) {
        Op o = Op::make(k);
        if (!cfg_.polynomial_only || o.is_polynomial()) ops.push_back(o);
      }
      for (unsigned n = 1; n <= cfg_.max_vector; ++n)
        ops.push_back(Op::make(OpKind::Dot, n));
    } else {
      ops.push_back(Op::make(OpKind::Scale, static_cast<unsigned>(t.real_power_exponent())));
    }
    Op o = ops[pick(static_cast<int>(ops.size()))];
    Type a = o.arg_type();
    if (a.is_pair() && chance(80)) {
      return mk::op(o, mk::pair(term(a.first(), depth - 1, trace_only),
                                term(a.second(), depth - 1, trace_only)));
    }
    return mk::op(o, term(a, depth - 1, trace_only));
  }

  Term let(Type t, int depth, bool trace_only) {
    Type s = random_type(1);
    Term bound = term(s, depth - 1, trace_only);
    Name x = var_name();
    vars_.push_back(TypedName{x, s});
    Term body = term(t, depth - 1, trace_only);
    vars_.pop_back();
    return mk::let(x, s, bound, body);
  }

  Term conditional(Type t, int depth) {
    BoolTerm g = guard(depth - 1);
    Term m = term(t, depth - 1);
    Term n = term(t, depth - 1);
    return mk::if_(g, m, n);
  }

  // The functions visible here: the innermost binding of each name.
  std::vector<FunSig> visible_functions() const {
    std::vector<FunSig> out;
    for (std::size_t i = 0; i < funs_.size(); ++i) {
      bool hidden = false;
      for (std::size_t j = i + 1; j < funs_.size(); ++j)
        if (funs_[j].name == funs_[i].name) hidden = true;
      if (!hidden) out.push_back(funs_[i]);
    }
    return out;
  }

  bool has_function_returning(Type t) const {
    for (const FunSig& f : visible_functions())
      if (f.result == t) return true;
    return false;
  }

  Term call(Type t, int depth) {
    std::vector<FunSig> fs;  // copies: generating the argument may grow funs_
    for (const FunSig& f : visible_functions())
      if (f.result == t) fs.push_back(f);
    FunSig f = fs[pick(static_cast<int>(fs.size()))];
    Term arg = term(f.param, depth - 1);
    return mk::call(f.name, f.param, f.result, arg);
  }

  // A function body sees only its parameter (Fig. 1), plus the functions in scope.
  template <class F>
  Term in_function_body(Name param, Type s, F&& body) {
    std::size_t saved_floor = var_floor_;
    vars_.push_back(TypedName{param, s});
    var_floor_ = vars_.size() - 1;
    int saved_rd = rd_depth_;
    Term b = body();
    rd_depth_ = saved_rd;
    var_floor_ = saved_floor;
    vars_.pop_back();
    return b;
  }

  // letrec f(x:S):U = M in N, with M either a terminating countdown on a real counter or an
  // arbitrary body (which may call f anywhere, also under rd: recursion through a derivative).
  Term letrec(Type t, int depth) {
    Name f(kFunPool[pick(std::size(kFunPool))]);
    Name x = var_name();
    bool countdown = chance(60);
    Type s = countdown ? (chance(60) ? Type::real() : Type::pair(Type::real(), random_type(0)))
                       : random_type(1);
    Type u = chance(50) ? t : random_type(1);
    funs_.push_back(FunSig{f, s, u});
    Term body = in_function_body(x, s, [&] {
      if (!countdown) return term(u, depth - 1);
      // if n < 0.5 then BASE else STEP, with STEP calling f on (n - 1, ...).
      Term xv = mk::var(x, s);
      Term n = s.is_real() ? xv : mk::fst(xv);
      Term smaller = mk::op(Op::make(OpKind::Sub), n, mk::literal("1"));
      Term arg = s.is_real() ? smaller : mk::pair(smaller, term(s.second(), depth - 2));
      Term rec = mk::call(f, s, u, arg);
      Term base = term(u, depth - 2);
      Term step = combine(u, rec, depth - 2);
      return mk::if_(mk::pred(Pred::make(PredKind::Lt), mk::pair(n, mk::literal("0.5"))), base,
                     step);
    });
    Term n = term(t, depth - 1);
    funs_.pop_back();
    return mk::letrec({FunDef{f, x, s, u, body, {}}}, n);
  }

  // A term of type u that uses `rec` (a recursive call of type u) once.
  Term combine(Type u, const Term& rec, int depth) {
    Name r = var_name();
    vars_.push_back(TypedName{r, u});
    Term body = term(u, std::max(depth, 0));
    vars_.pop_back();
    // Make sure the recursive result is used at least sometimes directly.
    if (u.is_real() && chance(50)) body = mk::add(mk::var(r, u), body);
    return mk::let(r, u, rec, body);
  }

  // M.rd_L(x:T. N) : T with N : U.
  Term rd(Type t, int depth) {
    Type u = chance(60) ? Type::real() : random_type(1);
    Term point = term(t, depth - 1);
    Name x = var_name();
    vars_.push_back(TypedName{x, t});
    ++rd_depth_;
    Term body = term(u, depth - 1);
    --rd_depth_;
    vars_.pop_back();
    Term cot = term(u, depth - 1);
    return mk::rd(cot, point, x, t, body);
  }
};

int depth_for(int size, const GenConfig& cfg) {
  return std::clamp(1 + size / 20, 1, cfg.max_depth);
}

std::string value_text_of(Type t, Builder& b) {
  switch (t.kind()) {
    case TypeKind::Real:
      return Builder::eighths(*rc::gen::inRange(-24, 25));
    case TypeKind::Unit:
      return "*";
    case TypeKind::Pair:
      return "(" + value_text_of(t.first(), b) + ", " + value_text_of(t.second(), b) + ")";
  }
  return "0";
}

GeneratedProgram make_program(Type t, const GenConfig& cfg, int size) {
  Builder b(cfg);
  GeneratedProgram p;
  int inputs = pick(cfg.max_inputs + 1);
  for (int i = 0; i < inputs; ++i) {
    Type it = chance(75) ? Type::real() : b.random_type(1);
    TypedName in{Name(kInputPool[i]), it};
    p.inputs.push_back(in);
    p.input_values.push_back(value_text_of(it, b));
    b.vars_.push_back(in);
  }
  p.term = b.term(t, depth_for(size, cfg));
  return p;
}

}  // namespace

void showValue(const GeneratedProgram& p, std::ostream& os) {
  for (std::size_t i = 0; i < p.inputs.size(); ++i)
    os << "--env " << p.inputs[i].name.str() << "=" << p.input_values[i] << "\n";
  os << print_program(p.term);
}

rc::Gen<Type> type(const GenConfig& cfg) {
  return rc::gen::exec([cfg] { return Builder(cfg).random_type(2); });
}

rc::Gen<GeneratedProgram> program_of_type(Type t, const GenConfig& cfg) {
  return rc::gen::withSize([t, cfg](int size) {
    return rc::gen::exec([t, cfg, size] { return make_program(t, cfg, size); });
  });
}

rc::Gen<GeneratedProgram> program(const GenConfig& cfg) {
  return rc::gen::withSize([cfg](int size) {
    return rc::gen::exec([cfg, size] {
      Builder b(cfg);
      Type t = b.random_type(2);
      return make_program(t, cfg, size);
    });
  });
}

rc::Gen<Term> trace_term(Type t, std::vector<TypedName> vars, const GenConfig& cfg) {
  return rc::gen::withSize([t, vars, cfg](int size) {
    return rc::gen::exec([t, vars, cfg, size] {
      Builder b(cfg);
      b.vars_ = vars;
      return b.term(t, depth_for(size, cfg), /*trace_only=*/true);
    });
  });
}

rc::Gen<std::string> value_text(Type t) {
  return rc::gen::exec([t] {
    GenConfig cfg;
    Builder b(cfg);
    return value_text_of(t, b);
  });
}

}  // namespace adlang::gen
