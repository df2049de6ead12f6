// Zero and addition at every type (paper Sec. 2), which R needs (Fig. 6):
//
//   0_real = 0      0_unit = *      0_{T*U} = <0_T, 0_U>
//   M +_unit N  = let x:unit = M in let y:unit = N in *
//   M +_{T*U} N = let <x1:T, x2:U> = M in let <y1:T, y2:U> = N in <x1 +_T y1, x2 +_U y2>
//
// and the tuple-elimination abbreviation they use:
//
//   let <x0:T0, ..., xn:Tn> = M in N
//     = let z:(T0*...*Tn) = M in let <x0:T0, ..., x(n-1):T(n-1)> = fst z in let xn:Tn = snd z in N
#pragma once

#include <vector>

#include "lang/name.hpp"
#include "lang/term.hpp"

namespace adlang {

struct TypedName {
  Name name;
  Type type;
};

// 0_T.
Term make_zero(Type t, SourceLoc loc = {});

// M +_T N, expanded as above; fresh names come from `names`.
Term make_plus(Type t, Term m, Term n, NameSupply& names, SourceLoc loc = {});

// let <x0:T0, ..., x(k-1):T(k-1)> = M in N, expanded as above (k >= 1; M : T0 * ... * T(k-1)).
// `body` is N, in which the names x0 ... x(k-1) occur free.
Term make_tuple_let(const std::vector<TypedName>& vars, Term m, const Term& body, NameSupply& names,
                    SourceLoc loc = {});

// <M0, ..., M(k-1)> as a left-nested tuple: * for k = 0, M0 for k = 1.
Term make_tuple_term(const std::vector<Term>& parts, SourceLoc loc = {});

}  // namespace adlang
