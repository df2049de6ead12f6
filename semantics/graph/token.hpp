// Tokens and bottoms of the tagged graph (thesis Sec. 3.2; docs/graph.md, "Undefinedness"):
// what the threaded executor (executor.hpp) and the reference executor
// (reference_executor.hpp) keep in a node's output. The firing rule of every node kind,
// written once for every executor, is in firing_rules.hpp.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "lang/diagnostics.hpp"
#include "semantics/undefined.hpp"

namespace adlang::graph {

// An undefinedness and its place in the program's left-to-right call-by-value order: the
// positions of the call sites from the main body down to the frame where it arose, then the
// position of the node. The smallest key is the undefinedness the sequential evaluators meet
// first (docs/graph.md).
struct Bottom {
  Undefined error;
  std::vector<std::uint32_t> key;
  bool budget = false;  // a call refused because --timeout or --max-memory ran out
};

// Absent: no token at all. Inside a block, the nodes on the untaken side of a Switch (under
// Deadness::Elide) receive nothing; they write "absent" to their outputs so that the nodes
// after them in the block see it. It never leaves the frame.
enum class State : std::uint8_t { Live, Dead, Bottom, Absent };

// A token in 8 bytes: a live token is its double, and the others are NaNs whose top 16 bits
// say which, a bottom's pointer in the low 48 bits. A live value is finite
// (ScalarTraits::in_range), and arithmetic makes only the NaNs 0x7FF8... and 0xFFF8..., never
// these. (Written as a double and a state byte in 16 bytes, a token just computed was copied
// by one 16-byte load from two smaller stores, which a processor cannot forward to the load;
// frames were twice as large: docs/performance.md Sec. 9, "Tokens in 8 bytes".)
class Token {
 public:
  static Token live(double v) {
    Token t;
    std::memcpy(&t.bits_, &v, sizeof v);
    return t;
  }
  static Token boolean(bool b) { return Token(b ? kOne : 0); }  // 1 or 0 (+0.0)
  static Token dead() { return Token(kDead); }
  static Token absent() { return Token(kAbsent); }
  static Token undefined(const Bottom* b) {
    const auto p = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(b));
    internal_check(p < kPayload, "a bottom lies above 2^48");
    return Token(kBottom | p);
  }

  bool is_live() const { return bits_ < kDead; }
  // A live predicate that selects side `side` of a Switch (0: true): firing_rules.hpp's
  // merge_choice(*this) == side, for a predicate. The 1 and 0 of Token::boolean, which every
  // predicate is, take one comparison.
  bool selects(std::uint32_t side) const {
    if (bits_ == (side == 0 ? kOne : 0)) return true;
    return is_live() && (value() != 0) == (side == 0);
  }
  bool is_dead() const { return (bits_ >> 48) == (kDead >> 48); }
  bool is_absent() const { return (bits_ >> 48) == (kAbsent >> 48); }
  bool is_bottom() const { return (bits_ >> 48) == (kBottom >> 48); }
  State state() const {
    return is_live() ? State::Live : static_cast<State>((bits_ >> 48) - (kLiveEnd >> 48));
  }
  double value() const {
    double v;
    std::memcpy(&v, &bits_, sizeof v);
    return v;
  }
  const Bottom* bottom() const {
    return reinterpret_cast<const Bottom*>(static_cast<std::uintptr_t>(bits_ & (kPayload - 1)));
  }

 private:
  static constexpr std::uint64_t kLiveEnd = std::uint64_t(0xFFF8) << 48;
  static constexpr std::uint64_t kDead = kLiveEnd + (std::uint64_t(State::Dead) << 48);
  static constexpr std::uint64_t kBottom = kLiveEnd + (std::uint64_t(State::Bottom) << 48);
  static constexpr std::uint64_t kAbsent = kLiveEnd + (std::uint64_t(State::Absent) << 48);
  static constexpr std::uint64_t kPayload = std::uint64_t(1) << 48;
  static constexpr std::uint64_t kOne = std::uint64_t(0x3FF0) << 48;  // 1.0
  Token() = default;
  explicit Token(std::uint64_t bits) : bits_(bits) {}
  std::uint64_t bits_;
};
static_assert(sizeof(Token) == 8);

// Whether the tokens in slots in[0 .. n) are all live.
inline bool all_live(const Token* slots, const std::uint32_t* in, std::uint32_t n) {
  bool live = true;
  for (std::uint32_t j = 0; j < n; ++j)
    live &= slots[in[j]].is_live();
  return live;
}

// The earlier of two bottoms in evaluation order.
inline const Bottom* earlier(const Bottom* a, const Bottom* b) {
  if (!a) return b;
  if (!b) return a;
  return b->key < a->key ? b : a;
}

// The earlier of two bottom tokens (firing_rules.hpp, strict_inputs).
inline Token earlier(const Token& a, const Token& b) {
  return Token::undefined(earlier(a.bottom(), b.bottom()));
}

}  // namespace adlang::graph
