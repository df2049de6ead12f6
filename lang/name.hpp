// Names of ordinary and function variables: interned strings compared by pointer.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace adlang {

class Name {
 public:
  Name() = default;
  // Interns `text` (thread-safe); equal texts give equal Names.
  explicit Name(std::string_view text);

  const std::string& str() const { return *s_; }
  bool empty() const { return s_ == nullptr || s_->empty(); }
  bool operator==(const Name& o) const { return s_ == o.s_; }
  bool operator!=(const Name& o) const { return s_ != o.s_; }
  // An arbitrary but fixed total order (by text), for deterministic output.
  bool operator<(const Name& o) const { return str() < o.str(); }
  std::size_t hash() const { return std::hash<const void*>()(s_); }

 private:
  const std::string* s_ = &empty_string();
  static const std::string& empty_string();
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
  void reserve(Name n) { taken_.insert(n); }
  // A name not reserved and not returned before, derived from `base`. Reserving a name
  // fresh() returned earlier has no effect on it (it is never returned again anyway).
  Name fresh(std::string_view base);

 private:
  NameSet taken_;
  std::unordered_map<std::string, unsigned> next_suffix_;
};

}  // namespace adlang
