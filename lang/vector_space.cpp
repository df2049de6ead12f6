#include "lang/vector_space.hpp"

#include <utility>

#include "lang/diagnostics.hpp"

namespace adlang {

Term make_zero(Type t, SourceLoc loc) {
  switch (t.kind()) {
    case TypeKind::Real:
      return mk::literal("0", loc);
    case TypeKind::Unit:
      return mk::unit(loc);
    case TypeKind::Pair:
      return mk::pair(make_zero(t.first(), loc), make_zero(t.second(), loc), loc);
  }
  throw InternalError("internal error: unknown type kind");
}

Term make_plus(Type t, Term m, Term n, NameSupply& names, SourceLoc loc) {
  internal_check(m.type() == t && n.type() == t, "operands of +_T have the wrong type");
  switch (t.kind()) {
    case TypeKind::Real:
      return mk::add(std::move(m), std::move(n), loc);
    case TypeKind::Unit: {
      Name x = names.fresh("x"), y = names.fresh("y");
      return mk::let(x, t, std::move(m), mk::let(y, t, std::move(n), mk::unit(loc), loc), loc);
    }
    case TypeKind::Pair: {
      Type a = t.first(), b = t.second();
      TypedName x1{names.fresh("x"), a}, x2{names.fresh("x"), b};
      TypedName y1{names.fresh("y"), a}, y2{names.fresh("y"), b};
      Term sum = mk::pair(
          make_plus(a, mk::var(x1.name, a, loc), mk::var(y1.name, a, loc), names, loc),
          make_plus(b, mk::var(x2.name, b, loc), mk::var(y2.name, b, loc), names, loc), loc);
      Term inner = make_tuple_let({y1, y2}, std::move(n), sum, names, loc);
      return make_tuple_let({x1, x2}, std::move(m), inner, names, loc);
    }
  }
  throw InternalError("internal error: unknown type kind");
}

Term make_tuple_let(const std::vector<TypedName>& vars, Term m, const Term& body, NameSupply& names,
                    SourceLoc loc) {
  internal_check(!vars.empty(), "tuple let without names");
  if (vars.size() == 1) return mk::let(vars[0].name, vars[0].type, std::move(m), body, loc);
  internal_check(m.type().is_pair(), "tuple let of a non-product");
  Name z = names.fresh("z");
  const Type mt = m.type();
  Term zv = mk::var(z, mt, loc);
  std::vector<TypedName> init(vars.begin(), vars.end() - 1);
  const TypedName& last = vars.back();
  Term rest = mk::let(last.name, last.type, mk::snd(zv, loc), body, loc);
  return mk::let(z, mt, std::move(m), make_tuple_let(init, mk::fst(zv, loc), rest, names, loc),
                 loc);
}

Term make_tuple_term(const std::vector<Term>& parts, SourceLoc loc) {
  if (parts.empty()) return mk::unit(loc);
  Term t = parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i)
    t = mk::pair(std::move(t), parts[i], loc);
  return t;
}

}  // namespace adlang
