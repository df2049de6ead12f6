#include "lang/reverse_template.hpp"

#include <optional>
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

// One instantiation of op's template at the values x and w. The components of x are made once
// and shared by every occurrence (div's b occurs three times), as a hand-written template would.
class Instance {
 public:
  Instance(Op op, const Term& x, const Term& w, SourceLoc loc) : op_(op), x_(x), w_(w), loc_(loc) {}

  // The trace term of node i.
  Term at(const ReverseTemplate& t, int i) {
    const ReverseNode& n = t.node(i);
    switch (n.kind) {
      case ReverseNode::Kind::Cotangent:
        return w_;
      case ReverseNode::Kind::Argument:
        return x_;
      case ReverseNode::Kind::First:
        if (!first_) first_ = first_of(x_, loc_);
        return *first_;
      case ReverseNode::Kind::Second:
        if (!second_) second_ = second_of(x_, loc_);
        return *second_;
      case ReverseNode::Kind::Literal:
        return mk::literal(std::to_string(n.literal), loc_);
      case ReverseNode::Kind::Apply: {
        Op inner = Op::make(n.op, op_.vector_size());
        Term a = at(t, n.parts[0]);
        if (n.nparts == 1) return mk::op(inner, a, loc_);
        return mk::op(inner, a, at(t, n.parts[1]), loc_);
      }
      case ReverseNode::Kind::Pair: {
        Term a = at(t, n.parts[0]);
        return mk::pair(a, at(t, n.parts[1]), loc_);
      }
    }
    throw InternalError("internal error: unknown reverse-template node");
  }

 private:
  Op op_;
  const Term& x_;
  const Term& w_;
  SourceLoc loc_;
  std::optional<Term> first_, second_;
};

}  // namespace

Term reverse_template(Op op, const Term& x, const Term& w, SourceLoc loc) {
  internal_check(is_value(x) && is_value(w), "reverse template instantiated with non-values");
  internal_check(x.type() == op.arg_type() && w.type() == op.result_type(),
                 "reverse template instantiated at the wrong types");
  const ReverseTemplate& t = reverse_rule(op.kind());
  return Instance(op, x, w, loc).at(t, t.root);
}

Term instantiate_reverse(Op op, const Term& d, const Term& w, NameSupply& names, SourceLoc loc) {
  if (is_value(d)) return reverse_template(op, d, w, loc);
  Name p = names.fresh("p");
  Term pv = mk::var(p, d.type(), loc);
  return mk::let(p, d.type(), d, reverse_template(op, pv, w, loc), loc);
}

}  // namespace adlang
