// A map from Name to a 32-bit index, by open addressing with linear probing: the index of the
// bindings of an environment (semantics/environment.hpp) and of the IR verifier's scopes
// (lang/verifier.cpp). A node-based map there allocated a node and a vector for every name
// bound, and R's output (Fig. 6) binds a fresh name per let. Names are never removed: a name no
// longer bound keeps its cell, holding kNone.
//
// Scopes over a stack of bindings: enter(x, i) makes the binding at i x's innermost and returns
// the one it hides, which the binding keeps; leave(x, hidden) undoes it when the binding is
// popped. Bindings nest, so each name's innermost binding is always the one held here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "lang/name.hpp"

namespace adlang {

class NameIndex {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  // The index held for x; kNone if none.
  std::uint32_t find(Name x) const {
    if (cells_.empty()) return kNone;
    for (std::size_t i = home(x);; i = next(i)) {
      if (!cells_[i].used) return kNone;
      if (cells_[i].name == x) return cells_[i].index;
    }
  }

  // The index held for x, to read or write; kNone when x is new. Valid until the next at().
  std::uint32_t& at(Name x) {
    if (2 * (size_ + 1) > cells_.size()) grow();
    std::size_t i = home(x);
    for (; cells_[i].used; i = next(i))
      if (cells_[i].name == x) return cells_[i].index;
    cells_[i] = Cell{x, kNone, true};
    ++size_;
    return cells_[i].index;
  }

  // Makes the binding at index i the innermost of x; returns the one it hides (or kNone).
  std::uint32_t enter(Name x, std::uint32_t i) {
    std::uint32_t& innermost = at(x);
    const std::uint32_t hidden = innermost;
    innermost = i;
    return hidden;
  }
  // Undoes enter(x, i), which returned `hidden`, as the binding at i goes out of scope.
  void leave(Name x, std::uint32_t hidden) { at(x) = hidden; }

 private:
  struct Cell {
    Name name;
    std::uint32_t index = kNone;
    bool used = false;
  };
  std::vector<Cell> cells_;  // a power of two, at most half of them used
  std::size_t size_ = 0;
  unsigned shift_ = 64;  // 64 - log2(cells_.size())

  std::size_t home(Name x) const {
    // Fibonacci hashing of the name's (interned) address; the product's top bits.
    return shift_ == 64 ? 0
                        : static_cast<std::size_t>((x.hash() * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  std::size_t next(std::size_t i) const { return (i + 1) & (cells_.size() - 1); }

  void grow() {
    std::vector<Cell> old = std::move(cells_);
    std::size_t capacity = old.empty() ? 16 : 2 * old.size();
    shift_ = 64;
    for (std::size_t c = capacity; c > 1; c /= 2)
      --shift_;
    cells_.assign(capacity, Cell{});
    size_ = 0;
    for (const Cell& c : old)
      if (c.used) at(c.name) = c.index;
  }
};

}  // namespace adlang
