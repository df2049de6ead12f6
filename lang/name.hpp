// Names of ordinary and function variables: interned strings compared by pointer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace adlang {

namespace detail {

// The names stem_1, stem_2, ... of one stem, interned by their suffix (lang/name.cpp).
class NameFamily;

// What a Name points to: its text, interned once, and, when the text is stem_k (k a decimal
// number from 1 without leading zeros), the family of the stem and k, so that NameSupply
// neither parses nor hashes a name's text.
struct NameEntry {
  std::string text;
  const NameFamily* family = nullptr;
  std::uint32_t suffix = 0;
  // Names are numbered as they are interned: a program's names, read in order, and the fresh
  // names of a pass get consecutive numbers (modulo 2^32).
  std::uint32_t serial = 0;
};

}  // namespace detail

class Name {
 public:
  Name() = default;
  // Interns `text` (thread-safe); equal texts give equal Names.
  explicit Name(std::string_view text);

  const std::string& str() const { return e_->text; }
  bool empty() const { return e_->text.empty(); }
  bool operator==(const Name& o) const { return e_ == o.e_; }
  bool operator!=(const Name& o) const { return e_ != o.e_; }
  // An arbitrary but fixed total order (by text), for deterministic output.
  bool operator<(const Name& o) const { return str() < o.str(); }
  std::size_t hash() const { return std::hash<const void*>()(e_); }
  // The number the name got when it was interned: a home in a hash table that keeps names
  // interned one after another in neighbouring cells, whatever their entries' addresses.
  std::uint32_t serial() const { return e_->serial; }

 private:
  friend class NameSupply;
  explicit Name(const detail::NameEntry* e) : e_(e) {}
  const detail::NameEntry* e_ = &empty_entry();
  static const detail::NameEntry& empty_entry();
};

struct NameHash {
  std::size_t operator()(const Name& n) const { return n.hash(); }
};
using NameSet = std::unordered_set<Name, NameHash>;

// The paper's freshness side conditions ("y not in FV(...)") are met by a supply of names that
// never collide with any name it has been told about (all names of the program) or has made.
// Fresh names are readable: `y` becomes `y_1`, `y_2`, ...
class NameSupply {
 public:
  // Marks `n` as taken: fresh() will never return it.
  void reserve(Name n);
  // A name not reserved and not returned before, derived from `base`. Reserving a name
  // fresh() returned earlier has no effect on it (it is never returned again anyway).
  Name fresh(std::string_view base);

 private:
  // One stem's names: the last suffix returned and the suffixes reserved. fresh() returns only
  // names stem_k, so reserving a name of no family cannot affect it and is not recorded.
  struct Stem {
    const detail::NameFamily* family;
    std::string_view text;  // the family's stem (the family lives as long as the program)
    std::uint32_t last = 0;
    std::vector<std::uint64_t> reserved;             // bit k: stem_k reserved, k < kNearLimit
    std::unordered_set<std::uint32_t> reserved_far;  // the reserved k >= kNearLimit
  };
  static constexpr std::uint32_t kNearLimit = 1u << 20;
  static bool is_reserved(const Stem& s, std::uint32_t k);
  Stem& stem_of(const detail::NameFamily* family);

  std::vector<Stem> stems_;  // few (x, y, z and the program's variables): searched in order
};

}  // namespace adlang
