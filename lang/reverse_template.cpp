#include "lang/reverse_template.hpp"

#include "lang/diagnostics.hpp"

namespace adlang {

namespace {

Term first_of(const Term& x, SourceLoc loc) {
  if (const Pair* p = x.as<Pair>()) return p->first;
  return mk::fst(x, loc);
}

Term second_of(const Term& x, SourceLoc loc) {
  if (const Pair* p = x.as<Pair>()) return p->second;
  return mk::snd(x, loc);
}

}  // namespace

Term reverse_template(Op op, const Term& x, const Term& w, SourceLoc loc) {
  internal_check(is_value(x) && is_value(w), "reverse template instantiated with non-values");
  internal_check(x.type() == op.arg_type() && w.type() == op.result_type(),
                 "reverse template instantiated at the wrong types");
  auto call = [&](OpKind k, const Term& arg) { return mk::op(Op::make(k), arg, loc); };
  auto call2 = [&](OpKind k, const Term& a, const Term& b) {
    return mk::op(Op::make(k), a, b, loc);
  };
  auto num = [&](const char* text) { return mk::literal(text, loc); };
  switch (op.kind()) {
    case OpKind::Neg:  // neg_r(x, w) = neg(w)
      return call(OpKind::Neg, w);
    case OpKind::Add:  // add_r((a, b), w) = (w, w)
      return mk::pair(w, w, loc);
    case OpKind::Sub:  // sub_r((a, b), w) = (w, neg(w))
      return mk::pair(w, call(OpKind::Neg, w), loc);
    case OpKind::Mul: {  // mul_r((a, b), w) = (mul(w, b), mul(w, a))
      Term a = first_of(x, loc), b = second_of(x, loc);
      return mk::pair(call2(OpKind::Mul, w, b), call2(OpKind::Mul, w, a), loc);
    }
    case OpKind::Div: {  // div_r((a, b), w) = (div(w, b), neg(div(mul(w, a), mul(b, b))))
      Term a = first_of(x, loc), b = second_of(x, loc);
      return mk::pair(
          call2(OpKind::Div, w, b),
          call(OpKind::Neg, call2(OpKind::Div, call2(OpKind::Mul, w, a), call2(OpKind::Mul, b, b))),
          loc);
    }
    case OpKind::Sin:  // sin_r(x, w) = mul(w, cos(x))
      return call2(OpKind::Mul, w, call(OpKind::Cos, x));
    case OpKind::Cos:  // cos_r(x, w) = neg(mul(w, sin(x)))
      return call(OpKind::Neg, call2(OpKind::Mul, w, call(OpKind::Sin, x)));
    case OpKind::Exp:  // exp_r(x, w) = mul(w, exp(x))
      return call2(OpKind::Mul, w, call(OpKind::Exp, x));
    case OpKind::Log:  // log_r(x, w) = div(w, x), defined where log is (x > 0)
      return call2(OpKind::Div, w, x);
    case OpKind::Sqrt:  // sqrt_r(x, w) = div(w, mul(2, sqrt(x))), defined for x > 0
      return call2(OpKind::Div, w, call2(OpKind::Mul, num("2"), call(OpKind::Sqrt, x)));
    case OpKind::Tanh:  // tanh_r(x, w) = mul(w, sub(1, mul(tanh(x), tanh(x))))
      return call2(OpKind::Mul, w,
                   call2(OpKind::Sub, num("1"),
                         call2(OpKind::Mul, call(OpKind::Tanh, x), call(OpKind::Tanh, x))));
    case OpKind::Sigmoid:  // sigmoid_r(x, w) = mul(w, mul(sigmoid(x), sub(1, sigmoid(x))))
      return call2(OpKind::Mul, w,
                   call2(OpKind::Mul, call(OpKind::Sigmoid, x),
                         call2(OpKind::Sub, num("1"), call(OpKind::Sigmoid, x))));
    case OpKind::Floor:  // floor_r(x, w) = 0: floor is locally constant on its domain
      return num("0");
    case OpKind::Dot: {  // dot_n_r((u, v), w) = (scale_n(w, v), scale_n(w, u))
      Op scale = Op::make(OpKind::Scale, op.vector_size());
      Term u = first_of(x, loc), v = second_of(x, loc);
      return mk::pair(mk::op(scale, w, v, loc), mk::op(scale, w, u, loc), loc);
    }
    case OpKind::Scale: {  // scale_n_r((c, v), w) = (dot_n(v, w), scale_n(c, w))
      Op dot = Op::make(OpKind::Dot, op.vector_size());
      Term c = first_of(x, loc), v = second_of(x, loc);
      return mk::pair(mk::op(dot, v, w, loc), mk::op(op, c, w, loc), loc);
    }
  }
  throw InternalError("internal error: operator without a reverse template");
}

Term instantiate_reverse(Op op, const Term& d, const Term& w, NameSupply& names, SourceLoc loc) {
  if (is_value(d)) return reverse_template(op, d, w, loc);
  Name p = names.fresh("p");
  Term pv = mk::var(p, d.type(), loc);
  return mk::let(p, d.type(), d, reverse_template(op, pv, w, loc), loc);
}

}  // namespace adlang
