// The values one tag of the graph's store holds beyond those it keeps in place (executor.cpp,
// TagNode): a table from store slot to value, by open addressing with linear probing, taken
// apart by backward-shift deletion (no tombstones, so a table whose values are all taken is
// empty again and probes stay short).
//
// A gradient of 10^5 inputs saves 2 * 10^5 values in its forward body's one activation and its
// adjoint takes them one by one: a node-based hash table (std::unordered_map) allocated and
// freed a node per value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace adlang::graph {

class SlotTable {
 public:
  std::size_t size() const { return size_; }
  // The memory it holds (its cells).
  std::size_t bytes() const { return cells_.size() * sizeof(Cell); }

  bool contains(std::uint32_t slot) const {
    if (cells_.empty()) return false;
    for (std::size_t i = home(slot);; i = next(i)) {
      if (cells_[i].slot == slot) return true;
      if (cells_[i].slot == kEmpty) return false;
    }
  }

  // Adds slot -> v; false (and no change) if the slot is held already.
  bool insert(std::uint32_t slot, double v) {
    if (2 * (size_ + 1) > cells_.size()) grow();
    std::size_t i = home(slot);
    for (; cells_[i].slot != kEmpty; i = next(i))
      if (cells_[i].slot == slot) return false;
    cells_[i] = Cell{slot, v};
    ++size_;
    return true;
  }

  // Removes the value of `slot` into v; false if the slot holds none.
  bool take(std::uint32_t slot, double& v) {
    if (cells_.empty()) return false;
    std::size_t i = home(slot);
    for (; cells_[i].slot != slot; i = next(i))
      if (cells_[i].slot == kEmpty) return false;
    v = cells_[i].value;
    // Backward shift: move up each later cell of the run whose home is not between the hole
    // and it (cyclically), so that every value stays reachable from its home.
    std::size_t hole = i;
    for (std::size_t j = next(i); cells_[j].slot != kEmpty; j = next(j)) {
      const std::size_t h = home(cells_[j].slot);
      const bool stays = hole < j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (stays) continue;
      cells_[hole] = cells_[j];
      hole = j;
    }
    cells_[hole].slot = kEmpty;
    --size_;
    return true;
  }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  struct Cell {
    std::uint32_t slot = kEmpty;
    double value = 0;
  };
  std::vector<Cell> cells_;  // a power of two, at most half full
  std::size_t size_ = 0;

  std::size_t home(std::uint32_t slot) const {
    // Fibonacci hashing: slots of one body are consecutive numbers.
    return static_cast<std::size_t>((std::uint64_t{slot} * 0x9E3779B97F4A7C15ull) >> 32) &
           (cells_.size() - 1);
  }
  std::size_t next(std::size_t i) const { return (i + 1) & (cells_.size() - 1); }

  void grow() {
    std::vector<Cell> old = std::move(cells_);
    cells_.assign(old.empty() ? 16 : 2 * old.size(), Cell{});
    size_ = 0;
    for (const Cell& c : old)
      if (c.slot != kEmpty) insert(c.slot, c.value);
  }
};

}  // namespace adlang::graph
