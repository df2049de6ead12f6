// Numbers with tagged infinitesimals: nested forward-mode differentiation for the denotational
// evaluator (semantics/denotational_eval.hpp), without perturbation confusion.
//
// A Tagged<S> is a multilinear polynomial over S in nilpotent infinitesimals e_0, ..., e_63
// (e_t * e_t = 0, e_s * e_t = e_t * e_s != 0 for s != t):
//
//   x = sum over tag sets K of x_K * prod_{t in K} e_t
//
// Each level of differentiation uses its own tag t (its nesting depth), so a perturbation
// introduced by an outer derivative is never mistaken for an inner one (Siskind & Pearlmutter,
// "Perturbation confusion and referential transparency", 2005). For f smooth at the point
// x = a + e_t b, where a and b do not mention e_t, f(x) = f(a) + e_t f'(a) b exactly (e_t is
// nilpotent); applying this recursively over the tags present gives every mixed partial
// derivative exactly, up to the rounding of S. No finite differences are involved.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <utility>

namespace adlang {

// The largest number of nested differentiation levels (one tag per level).
inline constexpr unsigned kMaxTags = 64;

template <class S>
class Tagged {
 public:
  using Mask = std::uint64_t;  // bit t set: the term contains e_t
  struct Coeff {
    Mask mask;
    S value;
  };

  Tagged() : terms_{Coeff{0, S(0)}} {}
  Tagged(const S& primal) : terms_{Coeff{0, primal}} {}  // NOLINT: a constant
  Tagged(int primal) : terms_{Coeff{0, S(primal)}} {}    // NOLINT: for Eigen's zero

  // e_tag (the infinitesimal of one differentiation level), with primal 0.
  static Tagged epsilon(unsigned tag) {
    Tagged r;
    r.terms_.push_back(Coeff{Mask(1) << tag, S(1)});
    return r;
  }

  // The coefficient of no infinitesimal: the ordinary value.
  const S& primal() const { return terms_.front().value; }
  // True when no infinitesimal occurs (a plain number).
  bool is_constant() const { return terms_.size() == 1; }
  std::size_t term_count() const { return terms_.size(); }
  const Coeff& coeff(std::size_t i) const { return terms_[i]; }

  // The highest tag occurring; only for non-constants.
  unsigned highest_tag() const {
    Mask all = 0;
    for (const Coeff& c : terms_)
      all |= c.mask;
    unsigned t = 0;
    while (all >>= 1)
      ++t;
    return t;
  }

  // x = a + e_tag * b with a, b free of e_tag: returns (a, b).
  std::pair<Tagged, Tagged> split(unsigned tag) const {
    const Mask bit = Mask(1) << tag;
    Tagged a, b;
    a.terms_.clear();
    b.terms_.clear();
    for (const Coeff& c : terms_) {
      if (c.mask & bit)
        b.terms_.push_back(Coeff{c.mask & ~bit, c.value});
      else
        a.terms_.push_back(c);
    }
    a.normalize_order();
    b.normalize_order();
    return {std::move(a), std::move(b)};
  }

  // e_tag * x, for x free of e_tag.
  Tagged times_epsilon(unsigned tag) const {
    const Mask bit = Mask(1) << tag;
    Tagged r;
    r.terms_.clear();
    r.terms_.push_back(Coeff{0, S(0)});
    for (const Coeff& c : terms_)
      if (!is_zero(c.value)) r.terms_.push_back(Coeff{c.mask | bit, c.value});
    r.normalize_order();
    return r;
  }

  friend Tagged operator+(const Tagged& x, const Tagged& y) { return merge(x, y, false); }
  friend Tagged operator-(const Tagged& x, const Tagged& y) { return merge(x, y, true); }
  friend Tagged operator-(const Tagged& x) {
    Tagged r = x;
    for (Coeff& c : r.terms_)
      c.value = -c.value;
    return r;
  }
  friend Tagged operator*(const Tagged& x, const Tagged& y) {
    if (x.is_constant() && y.is_constant()) return Tagged(x.primal() * y.primal());
    Tagged r;
    r.terms_.clear();
    for (const Coeff& a : x.terms_)
      for (const Coeff& b : y.terms_)
        if ((a.mask & b.mask) == 0) r.terms_.push_back(Coeff{a.mask | b.mask, a.value * b.value});
    r.combine();
    return r;
  }
  Tagged& operator+=(const Tagged& y) { return *this = *this + y; }
  Tagged& operator-=(const Tagged& y) { return *this = *this - y; }
  Tagged& operator*=(const Tagged& y) { return *this = *this * y; }

  // Equality of all coefficients (Eigen wants ==; the evaluator compares primals only).
  friend bool operator==(const Tagged& x, const Tagged& y) {
    if (x.terms_.size() != y.terms_.size()) return false;
    for (std::size_t i = 0; i < x.terms_.size(); ++i)
      if (x.terms_[i].mask != y.terms_[i].mask || !(x.terms_[i].value == y.terms_[i].value))
        return false;
    return true;
  }

 private:
  // Sorted by mask; the first term is always the primal (mask 0); other terms are nonzero.
  boost::container::small_vector<Coeff, 2> terms_;

  static bool is_zero(const S& v) { return v == 0; }

  void normalize_order() {
    std::sort(terms_.begin(), terms_.end(),
              [](const Coeff& a, const Coeff& b) { return a.mask < b.mask; });
    if (terms_.empty() || terms_.front().mask != 0) terms_.insert(terms_.begin(), Coeff{0, S(0)});
  }

  // Sorts, adds coefficients of equal masks, drops zero non-primal coefficients.
  void combine() {
    std::sort(terms_.begin(), terms_.end(),
              [](const Coeff& a, const Coeff& b) { return a.mask < b.mask; });
    std::size_t out = 0;
    for (std::size_t i = 0; i < terms_.size(); ++i) {
      if (out > 0 && terms_[out - 1].mask == terms_[i].mask)
        terms_[out - 1].value = terms_[out - 1].value + terms_[i].value;
      else
        terms_[out++] = terms_[i];
    }
    terms_.resize(out);
    drop_zeros();
  }

  void drop_zeros() {
    if (terms_.empty() || terms_.front().mask != 0) terms_.insert(terms_.begin(), Coeff{0, S(0)});
    auto keep = std::remove_if(terms_.begin() + 1, terms_.end(),
                               [](const Coeff& c) { return is_zero(c.value); });
    terms_.erase(keep, terms_.end());
  }

  static Tagged merge(const Tagged& x, const Tagged& y, bool subtract) {
    if (x.is_constant() && y.is_constant())
      return Tagged(subtract ? x.primal() - y.primal() : x.primal() + y.primal());
    Tagged r;
    r.terms_.clear();
    std::size_t i = 0, j = 0;
    while (i < x.terms_.size() || j < y.terms_.size()) {
      if (j == y.terms_.size() || (i < x.terms_.size() && x.terms_[i].mask < y.terms_[j].mask)) {
        r.terms_.push_back(x.terms_[i++]);
      } else if (i == x.terms_.size() || y.terms_[j].mask < x.terms_[i].mask) {
        const Coeff& c = y.terms_[j++];
        r.terms_.push_back(Coeff{c.mask, subtract ? S(-c.value) : c.value});
      } else {
        const Coeff& a = x.terms_[i++];
        const Coeff& b = y.terms_[j++];
        r.terms_.push_back(Coeff{a.mask, subtract ? S(a.value - b.value) : S(a.value + b.value)});
      }
    }
    r.drop_zeros();
    return r;
  }
};

}  // namespace adlang

// Eigen needs to know Tagged<S> is a (non-vectorisable) real-like scalar for J^T * w.
namespace Eigen {
template <class S>
struct NumTraits<adlang::Tagged<S>> : GenericNumTraits<adlang::Tagged<S>> {
  using Real = adlang::Tagged<S>;
  using NonInteger = adlang::Tagged<S>;
  using Nested = adlang::Tagged<S>;
  using Literal = adlang::Tagged<S>;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 4,
    AddCost = 8,
    MulCost = 16,
  };
};
}  // namespace Eigen
