#include "semantics/scalar.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace adlang {

std::optional<Precision> parse_precision(std::string_view s) {
  if (s == "double") return Precision::Double;
  if (s == "50") return Precision::Digits50;
  if (s == "100") return Precision::Digits100;
  if (s == "exact") return Precision::Exact;
  return std::nullopt;
}

const char* to_string(Precision p) {
  switch (p) {
    case Precision::Double:
      return "double";
    case Precision::Digits50:
      return "50";
    case Precision::Digits100:
      return "100";
    case Precision::Exact:
      return "exact";
  }
  return "double";
}

LiteralProblem ScalarTraits<double>::from_literal(const std::string& text, double& out) {
  errno = 0;
  out = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(out)) return LiteralProblem::Overflow;
  return LiteralProblem::None;
}

std::string repr_layout(const std::string& number) {
  bool negative = !number.empty() && number[0] == '-';
  std::size_t e = std::min(number.find_first_of("eE"), number.size());
  std::size_t point = std::min(number.find('.'), e);
  std::size_t start = negative ? 1 : 0;
  long exponent = e < number.size() ? std::strtol(number.c_str() + e + 1, nullptr, 10) : 0;
  // digits: all mantissa digits; the value is 0.<digits> * 10^decpt.
  std::string digits = number.substr(start, point - start);
  long decpt = static_cast<long>(digits.size()) + exponent;
  if (point < e) digits += number.substr(point + 1, e - point - 1);
  std::size_t lead = 0;
  while (lead < digits.size() && digits[lead] == '0')
    ++lead;
  digits.erase(0, lead);
  decpt -= static_cast<long>(lead);
  while (!digits.empty() && digits.back() == '0')
    digits.pop_back();
  if (digits.empty()) return "0";  // the reals have no signed zero
  // Python's float_repr_style "short": positional for -4 < decpt <= 16.
  long n = static_cast<long>(digits.size());
  std::string out = negative ? "-" : "";
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0)
      out += "0." + std::string(static_cast<std::size_t>(-decpt), '0') + digits;
    else if (decpt >= n)
      out += digits + std::string(static_cast<std::size_t>(decpt - n), '0');
    else
      out += digits.substr(0, static_cast<std::size_t>(decpt)) + "." +
             digits.substr(static_cast<std::size_t>(decpt));
    return out;
  }
  out += digits.substr(0, 1);
  if (n > 1) out += "." + digits.substr(1);
  long shown = decpt - 1;  // d.ddd * 10^shown
  std::string exp_digits = std::to_string(shown < 0 ? -shown : shown);
  if (exp_digits.size() < 2) exp_digits.insert(0, "0");
  return out + (shown < 0 ? "e-" : "e+") + exp_digits;
}

std::string ScalarTraits<double>::to_text(double x) {
  if (x == 0) return "0";  // the reals have no signed zero
  if (!std::isfinite(x)) return x > 0 ? "inf" : x < 0 ? "-inf" : "nan";
  char buf[64];
  // The shortest digits that read back as x, laid out as Python's repr lays them out.
#ifdef ADLANG_NO_MPFR
  // The playground's libc++ (emscripten 3.1.6) has no floating-point to_chars: the fewest
  // correctly rounded significant digits that read back as x. They are to_chars' digits: if
  // some n-digit decimal reads back as x, the nearest n-digit one does too.
  for (int digits = 1;; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
    if (std::strtod(buf, nullptr) == x || digits == 17) return repr_layout(buf);
  }
#else
  auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  return repr_layout(std::string(buf, r.ptr));
#endif
}

namespace {

#ifdef ADLANG_NO_MPFR
// cpp_bin_float keeps no per-thread caches.
void keep_mpfr_cache_tidy() {}
#else

// MPFR caches constants (log 2, pi, ...) per thread; they must be freed before the thread
// exits or they leak (adlang evaluates on short-lived large-stack threads). A thread_local
// guard made when a thread first reads an MPFR literal frees them at thread exit.
struct MpfrThreadCache {
  ~MpfrThreadCache() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
};

void keep_mpfr_cache_tidy() {
  thread_local MpfrThreadCache guard;
  (void)guard;
}
#endif

}  // namespace

template <unsigned Digits>
LiteralProblem MpfrTraits<Digits>::from_literal(const std::string& text, S& out) {
  keep_mpfr_cache_tidy();
  out = S(text);
  if (!bmp::isfinite(out)) return LiteralProblem::Overflow;
  return LiteralProblem::None;
}

template <unsigned Digits>
std::string MpfrTraits<Digits>::to_text(const S& x) {
  if (x == 0) return "0";
  if (!bmp::isfinite(x)) return x.str();
  // Shortest number of significant digits that reads back as x (monotone in the digit count,
  // so a binary search finds it).
  int lo = 1, hi = std::numeric_limits<S>::max_digits10;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (S(x.str(mid)) == x)
      hi = mid;
    else
      lo = mid + 1;
  }
  return repr_layout(x.str(lo));
}

template struct MpfrTraits<50>;
template struct MpfrTraits<100>;

LiteralProblem ScalarTraits<Rational>::from_literal(const std::string& text, Rational& out) {
  // sign, integer digits, fraction digits, exponent: value = digits * 10^(exp - #fraction).
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && text[i] == '-') {
    negative = true;
    ++i;
  }
  std::string digits;
  long scale = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    digits += text[i++];
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      digits += text[i++];
      --scale;
    }
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool neg_exp = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) neg_exp = text[i++] == '-';
    long e = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      e = e * 10 + (text[i++] - '0');
      if (e > kMaxDecimalExponent * 10) break;
    }
    scale += neg_exp ? -e : e;
  }
  if (scale > kMaxDecimalExponent || scale < -kMaxDecimalExponent) {
    return LiteralProblem::TooLargeForExact;
  }
  // Leading zeros would make GMP read the digits as octal ("0875" is rejected).
  std::size_t nonzero = digits.find_first_not_of('0');
  digits = nonzero == std::string::npos ? std::string("0") : digits.substr(nonzero);
  BigInteger mantissa(digits);
  BigInteger power = bmp::pow(BigInteger(10), static_cast<unsigned>(scale < 0 ? -scale : scale));
  out = scale < 0 ? Rational(mantissa, power) : Rational(mantissa * power);
  if (negative) out = -out;
  return LiteralProblem::None;
}

std::string ScalarTraits<Rational>::to_text(const Rational& x) {
  BigInteger num = bmp::numerator(x), den = bmp::denominator(x);
  // den = 2^a 5^b gives a finite decimal with max(a, b) fraction digits.
  BigInteger d = den;
  unsigned twos = 0, fives = 0;
  while (d % 2 == 0) {
    d /= 2;
    ++twos;
  }
  while (d % 5 == 0) {
    d /= 5;
    ++fives;
  }
  if (d != 1) return num.str() + "/" + den.str();
  unsigned k = std::max(twos, fives);
  BigInteger scaled = num * bmp::pow(BigInteger(10), k) / den;  // exact
  bool negative = scaled < 0;
  std::string s = (negative ? BigInteger(-scaled) : scaled).str();
  if (k > 0) {
    if (s.size() <= k) s.insert(0, k + 1 - s.size(), '0');
    s.insert(s.size() - k, ".");
  }
  return negative ? "-" + s : s;
}

}  // namespace adlang
