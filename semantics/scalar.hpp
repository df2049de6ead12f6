// The scalar types the evaluators are generic over (docs/design.md Sec. 4): double by default,
// 50- and 100-digit binary floats (MPFR through Boost.Multiprecision) for high precision, and
// exact rationals (GMP) for runs of the polynomial fragment. Built with ADLANG_NO_MPFR (the
// WebAssembly playground, where MPFR and GMP do not exist: docs/playground.md), the same
// precisions are Boost's own cpp_bin_float and cpp_rational.
//
// ScalarTraits<S> gives each type's conversions: reading a literal's decimal text, printing in
// shortest round-trip form, and telling whether a value is inside the type's range.
#pragma once

#ifdef ADLANG_NO_MPFR
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#else
#include <boost/multiprecision/gmp.hpp>
#include <boost/multiprecision/mpfr.hpp>
#endif
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace adlang {

namespace bmp = boost::multiprecision;

// Expression templates off: generic code (dual numbers, Eigen) wants plain value types.
#ifdef ADLANG_NO_MPFR
template <unsigned Digits>
using MultiFloat = bmp::number<bmp::cpp_bin_float<Digits>, bmp::et_off>;
using Rational = bmp::number<bmp::cpp_rational_backend, bmp::et_off>;
using BigInteger = bmp::cpp_int;
#else
template <unsigned Digits>
using MultiFloat = bmp::number<bmp::mpfr_float_backend<Digits>, bmp::et_off>;
using Rational = bmp::number<bmp::gmp_rational, bmp::et_off>;
using BigInteger = bmp::mpz_int;
#endif
using Mpfr50 = MultiFloat<50>;
using Mpfr100 = MultiFloat<100>;

enum class Precision { Double, Digits50, Digits100, Exact };

// "double", "50", "100", "exact" (the --precision values).
std::optional<Precision> parse_precision(std::string_view s);
const char* to_string(Precision p);

// Why a literal cannot be represented in a precision.
// Underflow is not a problem: a nonzero literal too small for a precision rounds to 0 (or a
// subnormal) as the result of an operation does, IEEE 754's gradual underflow (docs/semantics.md,
// "Underflow").
enum class LiteralProblem { None, Overflow, TooLargeForExact };

template <class S>
struct ScalarTraits;

// A number's shortest round-tripping digits, given as a decimal ("-1.25e+05", "0.001"), laid out
// as Python's repr lays out a float: positionally when the magnitude is at least 0.0001 and
// below 10^16 (500000, 1000000, 0.0001, 123456789012), else in
// scientific notation with a two-digit exponent at least (1e-05, 1.5e+16); no trailing ".0",
// since the reals have no separate integers. The layout of every printed double and MPFR number.
std::string repr_layout(const std::string& number);

template <>
struct ScalarTraits<double> {
  static constexpr Precision precision = Precision::Double;
  static constexpr bool exact = false;
  static LiteralProblem from_literal(const std::string& text, double& out);
  static std::string to_text(double x);
  static bool in_range(double x) { return std::isfinite(x); }
};

template <unsigned Digits>
struct MpfrTraits {
  using S = MultiFloat<Digits>;
  static constexpr bool exact = false;
  static LiteralProblem from_literal(const std::string& text, S& out);
  static std::string to_text(const S& x);
  static bool in_range(const S& x) { return bmp::isfinite(x); }
};

template <>
struct ScalarTraits<Mpfr50> : MpfrTraits<50> {
  static constexpr Precision precision = Precision::Digits50;
};
template <>
struct ScalarTraits<Mpfr100> : MpfrTraits<100> {
  static constexpr Precision precision = Precision::Digits100;
};

template <>
struct ScalarTraits<Rational> {
  static constexpr Precision precision = Precision::Exact;
  static constexpr bool exact = true;
  // Decimal exponents beyond this are refused in exact mode (10^(10^9) would exhaust memory).
  static constexpr long kMaxDecimalExponent = 100000;
  static LiteralProblem from_literal(const std::string& text, Rational& out);
  // A finite decimal when the denominator divides a power of ten, else "n/d".
  static std::string to_text(const Rational& x);
  static bool in_range(const Rational&) { return true; }
};

}  // namespace adlang
