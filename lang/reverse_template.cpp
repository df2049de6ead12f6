#include "lang/reverse_template.hpp"

#include <string>

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

// The trace term of node i of op's template, for the values x and w.
Term instantiate(const ReverseTemplate& t, int i, Op op, const Term& x, const Term& w,
                 SourceLoc loc) {
  const ReverseNode& n = t.node(i);
  switch (n.kind) {
    case ReverseNode::Kind::Cotangent:
      return w;
    case ReverseNode::Kind::Argument:
      return x;
    case ReverseNode::Kind::First:
      return first_of(x, loc);
    case ReverseNode::Kind::Second:
      return second_of(x, loc);
    case ReverseNode::Kind::Literal:
      return mk::literal(std::to_string(n.literal), loc);
    case ReverseNode::Kind::Apply: {
      Op inner = Op::make(n.op, op.vector_size());
      Term a = instantiate(t, n.parts[0], op, x, w, loc);
      if (n.nparts == 1) return mk::op(inner, a, loc);
      return mk::op(inner, a, instantiate(t, n.parts[1], op, x, w, loc), loc);
    }
    case ReverseNode::Kind::Pair:
      return mk::pair(instantiate(t, n.parts[0], op, x, w, loc),
                      instantiate(t, n.parts[1], op, x, w, loc), loc);
  }
  throw InternalError("internal error: unknown reverse-template node");
}

}  // namespace

Term reverse_template(Op op, const Term& x, const Term& w, SourceLoc loc) {
  internal_check(is_value(x) && is_value(w), "reverse template instantiated with non-values");
  internal_check(x.type() == op.arg_type() && w.type() == op.result_type(),
                 "reverse template instantiated at the wrong types");
  const ReverseTemplate& t = reverse_rule(op.kind());
  return instantiate(t, t.root, op, x, w, loc);
}

Term instantiate_reverse(Op op, const Term& d, const Term& w, NameSupply& names, SourceLoc loc) {
  if (is_value(d)) return reverse_template(op, d, w, loc);
  Name p = names.fresh("p");
  Term pv = mk::var(p, d.type(), loc);
  return mk::let(p, d.type(), d, reverse_template(op, pv, w, loc), loc);
}

}  // namespace adlang
