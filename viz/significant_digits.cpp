#include "viz/significant_digits.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

namespace adlang {

namespace {

bool digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// The end of the unsigned decimal number starting at `at` (a digit): digits, a fraction, an
// exponent.
std::size_t number_end(const std::string& s, std::size_t at, bool& integer) {
  std::size_t i = at;
  while (i < s.size() && digit(s[i]))
    ++i;
  integer = true;
  if (i + 1 < s.size() && s[i] == '.' && digit(s[i + 1])) {
    integer = false;
    ++i;
    while (i < s.size() && digit(s[i]))
      ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    if (j < s.size() && digit(s[j])) {
      integer = false;
      i = j;
      while (i < s.size() && digit(s[i]))
        ++i;
    }
  }
  return i;
}

std::size_t significant_digits(const std::string& number) {
  std::size_t count = 0;
  bool leading = true;
  for (char c : number) {
    if (c == 'e' || c == 'E') break;
    if (!digit(c)) continue;
    if (leading && c == '0') continue;
    leading = false;
    ++count;
  }
  return count;
}

// %.{digits}Lg of x (a nonzero number parsed), or false when x overflowed or underflowed.
bool rounded(long double x, int digits, std::string& out) {
  if (!std::isfinite(x) || x == 0) return false;  // beyond long double: kept as printed
  // %Lg of a finite long double with at most 4934 digits of precision: the length asked for
  // first, then the text (a fixed buffer fails -Wformat-truncation where digits is not known).
  int n = std::snprintf(nullptr, 0, "%.*Lg", digits, x);
  if (n <= 0) return false;
  std::string text(static_cast<std::size_t>(n) + 1, '\0');
  std::snprintf(text.data(), text.size(), "%.*Lg", digits, x);
  text.resize(static_cast<std::size_t>(n));
  out = std::move(text);
  return true;
}

}  // namespace

std::string with_significant_digits(const std::string& printed, int digits) {
  std::string out;
  std::size_t i = 0;
  while (i < printed.size()) {
    const char c = printed[i];
    const bool starts =
        digit(c) && (i == 0 || !(std::isalnum(static_cast<unsigned char>(printed[i - 1])) ||
                                 printed[i - 1] == '_' || printed[i - 1] == '.'));
    if (!starts) {
      out += c;
      ++i;
      continue;
    }
    bool integer = false;
    std::size_t end = number_end(printed, i, integer);
    std::string number = printed.substr(i, end - i);
    // An exact fraction p/q.
    if (integer && end + 1 < printed.size() && printed[end] == '/' && digit(printed[end + 1])) {
      bool q_integer = false;
      std::size_t q_end = number_end(printed, end + 1, q_integer);
      if (q_integer) {
        std::string fraction = printed.substr(i, q_end - i);
        std::string decimal;
        long double p = std::strtold(number.c_str(), nullptr);
        long double q = std::strtold(printed.substr(end + 1, q_end - end - 1).c_str(), nullptr);
        if (fraction.size() > static_cast<std::size_t>(2 * digits + 1) && q != 0 &&
            rounded(p / q, digits, decimal)) {
          out += decimal;
        } else {
          out += fraction;
        }
        i = q_end;
        continue;
      }
    }
    std::string decimal;
    if (significant_digits(number) > static_cast<std::size_t>(digits) &&
        rounded(std::strtold(number.c_str(), nullptr), digits, decimal)) {
      out += decimal;
    } else {
      out += number;
    }
    i = end;
  }
  return out;
}

}  // namespace adlang
