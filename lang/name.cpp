#include "lang/name.hpp"

#include <array>
#include <atomic>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace adlang {

namespace detail {

namespace {

// Serialises every change of the intern tables (look-ups of an existing stem_k take no lock).
std::mutex& intern_mutex() {
  static std::mutex* m = new std::mutex();  // Never destroyed: Names outlive statics.
  return *m;
}

// The next name's serial number (NameEntry::serial); read and written under intern_mutex().
std::uint32_t next_serial = 1;

}  // namespace

// Interns stem_k by k: the names NameSupply::fresh makes are found by two indexed loads, without
// building, hashing or comparing their text. Entries are made once and never freed.
class NameFamily {
 public:
  explicit NameFamily(std::string_view stem) : stem_(stem) {}
  const std::string& stem() const { return stem_; }

  const NameEntry* entry(std::uint32_t k) const {
    if (k < kPageSize * kPages) {
      Page* page = pages_[k / kPageSize].load(std::memory_order_acquire);
      if (page) {
        const NameEntry* e = (*page)[k % kPageSize].load(std::memory_order_acquire);
        if (e) return e;
      }
    }
    std::lock_guard<std::mutex> lock(intern_mutex());
    if (k >= kPageSize * kPages) {
      const NameEntry*& e = far_[k];
      if (!e) e = make(k);
      return e;
    }
    std::atomic<Page*>& slot = pages_[k / kPageSize];
    Page* page = slot.load(std::memory_order_relaxed);
    if (!page) {
      page = new Page();  // value-initialised: every entry null
      slot.store(page, std::memory_order_release);
    }
    std::atomic<const NameEntry*>& e = (*page)[k % kPageSize];
    const NameEntry* made = e.load(std::memory_order_relaxed);
    if (!made) {
      made = make(k);
      e.store(made, std::memory_order_release);
    }
    return made;
  }

 private:
  static constexpr std::uint32_t kPageSize = 1024, kPages = 256;
  using Page = std::array<std::atomic<const NameEntry*>, kPageSize>;

  const NameEntry* make(std::uint32_t k) const {
    return new NameEntry{stem_ + "_" + std::to_string(k), this, k, next_serial++};
  }

  std::string stem_;
  mutable std::array<std::atomic<Page*>, kPages> pages_{};
  mutable std::unordered_map<std::uint32_t, const NameEntry*> far_;  // k >= kPageSize * kPages
};

namespace {

// Transparent hashing: looking up an existing text does not allocate a std::string.
struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};

// The names of no family, and the families by stem; both keyed by views of text they own.
struct InternTable {
  std::unordered_map<std::string_view, const NameEntry*, TextHash, std::equal_to<>> names;
  std::unordered_map<std::string_view, const NameFamily*, TextHash, std::equal_to<>> families;
};

InternTable& intern_table() {
  static InternTable* table = new InternTable();  // Never destroyed: Names outlive statics.
  return *table;
}

const NameFamily* family(std::string_view stem) {
  std::lock_guard<std::mutex> lock(intern_mutex());
  auto& families = intern_table().families;
  auto it = families.find(stem);
  if (it == families.end()) {
    auto* made = new NameFamily(stem);
    it = families.emplace(made->stem(), made).first;
  }
  return it->second;
}

// The position of the '_' of a suffix `_<digits>` after a non-empty stem, if text has one.
std::optional<std::size_t> digit_suffix_at(std::string_view text) {
  std::size_t us = text.rfind('_');
  if (us == std::string_view::npos || us == 0 || us + 1 >= text.size()) return std::nullopt;
  if (text.find_first_not_of("0123456789", us + 1) != std::string_view::npos) return std::nullopt;
  return us;
}

// text = stem_k with a non-empty stem and k a decimal in [1, 2^32) without leading zeros: the
// split at the last '_' (the texts NameSupply::fresh makes are all of this form).
struct Split {
  std::string_view stem;
  std::uint32_t k;
};
std::optional<Split> split_suffix(std::string_view text) {
  std::optional<std::size_t> us = digit_suffix_at(text);
  if (!us) return std::nullopt;
  std::string_view digits = text.substr(*us + 1);
  if (digits[0] == '0' || digits.size() > 10) return std::nullopt;
  std::uint64_t k = 0;
  for (char c : digits)
    k = 10 * k + static_cast<std::uint64_t>(c - '0');
  if (k > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
  return Split{text.substr(0, *us), static_cast<std::uint32_t>(k)};
}

}  // namespace

}  // namespace detail

const detail::NameEntry& Name::empty_entry() {
  static const detail::NameEntry* empty = new detail::NameEntry();
  return *empty;
}

Name::Name(std::string_view text) {
  if (text.empty()) return;
  if (std::optional<detail::Split> s = detail::split_suffix(text)) {
    e_ = detail::family(s->stem)->entry(s->k);
    return;
  }
  std::lock_guard<std::mutex> lock(detail::intern_mutex());
  auto& names = detail::intern_table().names;
  auto it = names.find(text);
  if (it == names.end()) {
    auto* made = new detail::NameEntry{std::string(text), nullptr, 0, detail::next_serial++};
    it = names.emplace(made->text, made).first;
  }
  e_ = it->second;
}

bool NameSupply::is_reserved(const Stem& s, std::uint32_t k) {
  if (k >= kNearLimit) return s.reserved_far.count(k) != 0;
  std::size_t word = k / 64;
  return word < s.reserved.size() && (s.reserved[word] >> (k % 64) & 1u) != 0;
}

NameSupply::Stem& NameSupply::stem_of(const detail::NameFamily* family) {
  for (Stem& s : stems_)
    if (s.family == family) return s;
  stems_.push_back(Stem{family, family->stem(), 0, {}, {}});
  return stems_.back();
}

void NameSupply::reserve(Name n) {
  if (!n.e_->family) return;
  Stem& s = stem_of(n.e_->family);
  std::uint32_t k = n.e_->suffix;
  if (k >= kNearLimit) {
    s.reserved_far.insert(k);
    return;
  }
  std::size_t word = k / 64;
  if (word >= s.reserved.size()) s.reserved.resize(word + 1);
  s.reserved[word] |= std::uint64_t{1} << (k % 64);
}

Name NameSupply::fresh(std::string_view base) {
  // Strip an existing `_<digits>` suffix (any digits, unlike the interned k of split_suffix) so
  // that fresh("y_3") gives y_4-style names, not y_3_1.
  std::string_view stem = base;
  if (std::optional<std::size_t> us = detail::digit_suffix_at(stem)) stem = stem.substr(0, *us);
  if (stem.empty()) stem = "v";
  // The texts this returns are stem_k with k increasing per stem, and the stem is what remains
  // of such a text without its _k, so no two calls return the same name: only the reserved
  // names need checking, and fresh names need not be remembered (traces make millions).
  Stem* s = nullptr;
  for (Stem& t : stems_)
    if (t.text == stem) {
      s = &t;
      break;
    }
  if (!s) s = &stem_of(detail::family(stem));
  for (;;) {
    std::uint32_t k = ++s->last;
    if (!is_reserved(*s, k)) return Name(s->family->entry(k));
  }
}

}  // namespace adlang
