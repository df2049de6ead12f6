// Values: printing in shortest round-trip form per precision, and reading --env values.
#include "semantics/value.hpp"

#include <gtest/gtest.h>

namespace adlang {
namespace {

TEST(Value, PrintsLeftNestedTuplesFlat) {
  Type t = Type::pair(Type::pair(Type::real(), Type::real()), Type::real());
  double d[] = {1, 2, 3};
  EXPECT_EQ(print_value<double>(t, d), "(1, 2, 3)");
  Type u = Type::pair(Type::real(), Type::pair(Type::unit(), Type::real()));
  double e[] = {1.5, 2};
  EXPECT_EQ(print_value<double>(u, e), "(1.5, (*, 2))");
}

TEST(Value, ShortestRoundTripReals) {
  double d[] = {0.1, 1e30, -0.0, 2};
  EXPECT_EQ(print_value<double>(Type::real(), d), "0.1");
  EXPECT_EQ(print_value<double>(Type::real(), d + 1), "1e+30");
  EXPECT_EQ(print_value<double>(Type::real(), d + 2), "0");
  EXPECT_EQ(print_value<double>(Type::real(), d + 3), "2");
  Mpfr50 third = Mpfr50(1) / 3;
  EXPECT_EQ(ScalarTraits<Mpfr50>::to_text(third).size(), 53u);  // "0." and 51 digits
  EXPECT_EQ(ScalarTraits<Rational>::to_text(Rational(1, 8)), "0.125");
  EXPECT_EQ(ScalarTraits<Rational>::to_text(Rational(-1, 3)), "-1/3");
}

// Shortest round-tripping digits, laid out as Python's repr lays out a float (without ".0").
TEST(Value, NumbersPrintLikePythonsRepr) {
  Type t4 =
      Type::pair(Type::pair(Type::pair(Type::real(), Type::real()), Type::real()), Type::real());
  double d[] = {500000, 1000000, 0.0001, 123456789012};
  EXPECT_EQ(print_value<double>(t4, d), "(500000, 1000000, 0.0001, 123456789012)");
  auto text = [](double x) { return ScalarTraits<double>::to_text(x); };
  EXPECT_EQ(text(1e-5), "1e-05");      // repr(1e-5)
  EXPECT_EQ(text(1.5e-5), "1.5e-05");  // repr(1.5e-5)
  EXPECT_EQ(text(1e15), "1000000000000000");
  EXPECT_EQ(text(1e16), "1e+16");
  EXPECT_EQ(text(1.25e16), "1.25e+16");
  EXPECT_EQ(text(-0.00123), "-0.00123");
  EXPECT_EQ(text(123.456), "123.456");
  EXPECT_EQ(text(5e-324), "5e-324");
  EXPECT_EQ(text(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(text(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(ScalarTraits<Mpfr50>::to_text(Mpfr50(500000)), "500000");
  EXPECT_EQ(ScalarTraits<Mpfr50>::to_text(Mpfr50("1e-400")), "1e-400");
  EXPECT_EQ(ScalarTraits<Mpfr50>::to_text(Mpfr50("0.0001")), "0.0001");
  EXPECT_EQ(repr_layout("-0.000"), "0");
  EXPECT_EQ(repr_layout("0.00012e2"), "0.012");
}

TEST(Value, JsonMirrorsTheType) {
  Type u = Type::pair(Type::real(), Type::pair(Type::unit(), Type::real()));
  double e[] = {1.5, 2};
  EXPECT_EQ(print_value_json<double>(u, e), "[1.5, [null, 2]]");
}

TEST(Value, ParsesEnvValues) {
  ParsedValue<double> v = parse_value<double>("(1, (-2.5, *))");
  EXPECT_EQ(to_string(v.type), "real * (real * unit)");
  ASSERT_EQ(v.value.size(), 2u);
  EXPECT_EQ(v.value[1], -2.5);
  EXPECT_EQ(to_string(parse_value<double>("(1, 2, 3)").type), "real^3");
}

TEST(Value, RejectsNonValuesAndOutOfRangeNumbers) {
  EXPECT_THROW(parse_value<double>("x + 1"), ValueSyntaxError);
  EXPECT_THROW(parse_value<double>("nan"), ValueSyntaxError);
  EXPECT_THROW(parse_value<double>("inf"), ValueSyntaxError);
  EXPECT_THROW(parse_value<double>("1e400"), ValueSyntaxError);
  EXPECT_THROW(parse_value<double>("(1,"), ValueSyntaxError);
  EXPECT_NO_THROW(parse_value<Mpfr50>("1e400"));
}

TEST(Value, ExactDecimalsInRationalMode) {
  ParsedValue<Rational> v = parse_value<Rational>("0.1");
  EXPECT_EQ(v.value[0], Rational(1, 10));
  EXPECT_EQ(parse_value<Rational>("-2.5e-3").value[0], Rational(-1, 400));
  // Fraction digits after a leading zero are decimal, not octal.
  EXPECT_EQ(parse_value<Rational>("0.123").value[0], Rational(123, 1000));
  EXPECT_EQ(parse_value<Rational>("-0.875").value[0], Rational(-7, 8));
  EXPECT_EQ(parse_value<Rational>("007").value[0], Rational(7));
}

}  // namespace
}  // namespace adlang
