#include "lang/name.hpp"

#include <mutex>

namespace adlang {

namespace {

// Transparent hashing: looking up an existing name does not allocate a std::string.
struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};

struct InternTable {
  std::mutex mutex;
  // Node-based: element addresses are stable.
  std::unordered_set<std::string, TextHash, std::equal_to<>> strings;
};

InternTable& intern_table() {
  static InternTable* table = new InternTable();  // Never destroyed: Names outlive statics.
  return *table;
}

}  // namespace

const std::string& Name::empty_string() {
  static const std::string* empty = new std::string();
  return *empty;
}

Name::Name(std::string_view text) {
  if (text.empty()) return;
  InternTable& t = intern_table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.strings.find(text);
  if (it == t.strings.end()) it = t.strings.emplace(text).first;
  s_ = &*it;
}

Name NameSupply::fresh(std::string_view base) {
  // Strip an existing `_<digits>` suffix so that fresh("y_3") gives y_4-style names, not y_3_1.
  std::string stem(base);
  std::size_t us = stem.rfind('_');
  if (us != std::string::npos && us + 1 < stem.size() && us > 0 &&
      stem.find_first_not_of("0123456789", us + 1) == std::string::npos) {
    stem.resize(us);
  }
  if (stem.empty()) stem = "v";
  // The texts this returns are stem_k with k increasing per stem, and the stem is what remains
  // of such a text without its _k, so no two calls return the same name: only the reserved
  // names need checking, and fresh names need not be remembered (traces make millions).
  unsigned& k = next_suffix_[stem];
  for (;;) {
    Name candidate(stem + "_" + std::to_string(++k));
    if (!taken_.count(candidate)) return candidate;
  }
}

}  // namespace adlang
