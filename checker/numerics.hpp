// The checker's numerics, in one place: when two numbers computed by different routes count as
// equal, and central differences (the finite-difference witness, docs/design.md Sec. 7). Every step
// and tolerance is a named constant with the reasoning for its value; the properties
// (checker/properties/) and the tests that compare derivatives with difference quotients use
// these and no others.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "semantics/scalar.hpp"
#include "semantics/value.hpp"

namespace adlang::checker::numerics {

// A constant from its decimal text, in precision S (exactly as written where S can hold it).
template <class S>
S constant(const char* text) {
  S out;
  ScalarTraits<S>::from_literal(text, out);
  return out;
}

template <class S>
S magnitude(const S& x) {
  return x < 0 ? S(-x) : x;
}

// ---- agreement of two routes ----------------------------------------------------------------
//
// Two routes to the same real (R's trace against dual numbers, a denotation against an
// evaluation) round differently. The programs of a check run are small (at most a few hundred
// operations, kDefaultMaxSize) and their operators are well conditioned away from the
// boundaries of their domains, so rounding costs at most about 7 of double's 16 digits:
//   kAgreementDouble = 1e-9, relative to 1 + max(|a|, |b|).
// A disagreement beyond it is not reported at once: it is re-checked in the next precision up
// (checker/property_registry.cpp), so the tolerance may be tight without false alarms. 50 and
// 100 digits keep the same ~20 digits of headroom:
//   kAgreement50 = 1e-30, kAgreement100 = 1e-70 (100 digits: 30 more for deep nested rd).
// Exact rationals must agree exactly.
inline constexpr const char* kAgreementDouble = "1e-9";
inline constexpr const char* kAgreement50 = "1e-30";
inline constexpr const char* kAgreement100 = "1e-70";

template <class S>
S agreement_tolerance() {
  if constexpr (ScalarTraits<S>::exact) {
    return S(0);
  } else if constexpr (std::is_same_v<S, double>) {
    return constant<S>(kAgreementDouble);
  } else if constexpr (std::is_same_v<S, Mpfr50>) {
    return constant<S>(kAgreement50);
  } else {
    return constant<S>(kAgreement100);
  }
}

// |a - b| <= tol * (1 + max(|a|, |b|)), componentwise; exact equality for rationals.
template <class S>
bool close(const Value<S>& a, const Value<S>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if constexpr (ScalarTraits<S>::exact) {
      if (a[i] != b[i]) return false;
    } else {
      S scale = S(1) + std::max(magnitude(a[i]), magnitude(b[i]));
      if (!(magnitude(S(a[i] - b[i])) <= agreement_tolerance<S>() * scale)) return false;
    }
  }
  return true;
}

// The same numbers to the bit: what two engines computing the same operations in the same
// order must give (double's -0 and 0 differ here; an exact or multiprecision value compares
// by ==, which for MPFR floats of equal precision is equality of the represented number).
template <class S>
bool identical(const Value<S>& a, const Value<S>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if constexpr (std::is_same_v<S, double>) {
      // (memcmp, not std::bit_cast: the playground's emscripten 3.1.6 has no bit_cast)
      if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) return false;
    } else {
      if (!(a[i] == b[i])) return false;
    }
  }
  return true;
}

// ---- "near rho" (Thm. 6.2 (2)) --------------------------------------------------------------
//
// The theorem promises agreement on some open neighbourhood, of unknown size, so a
// disagreement must persist at every scale tried. The scales stay far above the precision's
// resolution (a perturbation must move the inputs: 1e-7 in double is 1e9 ulps at 1) and far
// below the distance to a typical boundary of the generated programs (guards compare with
// literals of 2-3 digits, so 1e-3 already leaves the neighbourhood only near a tie).
template <class S>
std::vector<S> near_scales() {
  if constexpr (ScalarTraits<S>::exact) {
    return {S(1) / S(1000), S(1) / S(1000000), S(1) / S(1000000000)};
  } else if constexpr (std::is_same_v<S, double>) {
    return {1e-3, 1e-5, 1e-7};
  } else if constexpr (std::is_same_v<S, Mpfr50>) {
    return {constant<S>("1e-8"), constant<S>("1e-14"), constant<S>("1e-20")};
  } else {
    return {constant<S>("1e-10"), constant<S>("1e-25"), constant<S>("1e-40")};
  }
}

// ---- central differences ---------------------------------------------------------------------
//
// (f(a + h u) - f(a - h u)) / 2h has truncation error O(h^2 f''') and rounding error
// O(eps |f| / h). In 50 digits (eps = 1e-50) at h = 1e-14 the rounding error is ~1e-36 and the
// truncation error ~1e-28 |f'''|; at h = 1e-17, ~1e-33 and ~1e-34 |f'''|. The quotient is
// computed at both steps and used only when the two agree to kConverged = 1e-20 (relative to
// 1 + |estimate|): then the truncation error at the smaller step is far below 1e-20, and the
// derivative must match the smaller step's estimate to kCentralMatch = 1e-17, 1000 times
// looser than convergence, because a steep trace (sin(exp(dot_2(x, x))) at (-2, 3) has
// f''' ~ 1e16) can converge to 1e-20 while being 1e-18 off. In 100 digits the steps are
// 1e-25 and 1e-30 (rounding 1e-70, truncation 1e-50 |f'''|), kConverged 1e-40, kCentralMatch
// 1e-37. Doubles are never used: 16 digits cannot make both errors small at once.
template <class S>
struct CentralSteps {
  static constexpr bool k100 = std::is_same_v<S, Mpfr100>;
  S h[2] = {constant<S>(k100 ? "1e-25" : "1e-14"), constant<S>(k100 ? "1e-30" : "1e-17")};
  S converged = constant<S>(k100 ? "1e-40" : "1e-20");
  S match = constant<S>(k100 ? "1e-37" : "1e-17");
};

// The central difference of f along u at a, at both steps of CentralSteps, componentwise.
// `at(s)` evaluates f(a + s u): a value, or nullopt where f is undefined. nullopt where f is
// undefined within h of a.
template <class S, class At>
std::optional<std::array<Value<S>, 2>> central_differences(At&& at) {
  CentralSteps<S> steps;
  std::array<Value<S>, 2> est;
  for (int n = 0; n < 2; ++n) {
    const S& h = steps.h[n];
    std::optional<Value<S>> plus = at(h), minus = at(S(-h));
    if (!plus || !minus) return std::nullopt;
    est[n] = Value<S>(plus->size());
    for (std::size_t r = 0; r < plus->size(); ++r)
      est[n][r] = ((*plus)[r] - (*minus)[r]) / (S(2) * h);
  }
  return est;
}

// Whether the two estimates agree to CentralSteps::converged (the quotient has converged).
template <class S>
bool converged(const std::array<Value<S>, 2>& est) {
  S tol = CentralSteps<S>().converged;
  for (std::size_t r = 0; r < est[1].size(); ++r)
    if (!(magnitude(S(est[0][r] - est[1][r])) <= tol * (S(1) + magnitude(est[1][r])))) return false;
  return true;
}

// Whether a derivative matches a converged central difference (CentralSteps::match).
template <class S>
bool matches_central_difference(const S& derivative, const S& estimate) {
  return magnitude(S(estimate - derivative)) <=
         CentralSteps<S>().match * (S(1) + magnitude(estimate));
}

}  // namespace adlang::checker::numerics
