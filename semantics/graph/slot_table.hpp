// The values one tag of the graph's store holds beyond those it keeps in place (executor.cpp,
// TagNode): a table from store slot to value, by open addressing with linear probing. A value
// taken leaves a marker that probes pass (moving the rest of its run up, as backward-shift
// deletion does, cost about 400 instructions a take on a gradient's consecutive slots); the
// markers go when the table is rebuilt. Slots are below 2^32 - 2 (adjoint.cpp, new_slot).
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
    for (std::size_t i = home(slot); cells_[i].slot != kEmpty; i = next(i))
      if (cells_[i].slot == slot) return true;
    return false;
  }

  // Adds slot -> v; false (and no change) if the slot is held already.
  bool insert(std::uint32_t slot, double v) {
    if (2 * (size_ + taken_ + 1) > cells_.size()) rehash();
    std::size_t free = kNowhere;
    std::size_t i = home(slot);
    for (; cells_[i].slot != kEmpty; i = next(i)) {
      if (cells_[i].slot == slot) return false;
      if (cells_[i].slot == kTaken && free == kNowhere) free = i;
    }
    if (free == kNowhere) {
      free = i;
    } else {
      --taken_;
    }
    cells_[free] = Cell{slot, v};
    ++size_;
    return true;
  }

  // Removes the value of `slot` into v; false if the slot holds none.
  bool take(std::uint32_t slot, double& v) {
    if (cells_.empty()) return false;
    for (std::size_t i = home(slot); cells_[i].slot != kEmpty; i = next(i)) {
      if (cells_[i].slot == slot) {
        v = cells_[i].value;
        cells_[i].slot = kTaken;  // probes for other slots go on past it
        --size_;
        ++taken_;
        return true;
      }
    }
    return false;
  }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX, kTaken = UINT32_MAX - 1;
  static constexpr std::size_t kNowhere = SIZE_MAX;
  struct Cell {
    std::uint32_t slot = kEmpty;
    double value = 0;
  };
  std::vector<Cell> cells_;  // a power of two; held and taken cells at most half of them
  std::size_t size_ = 0, taken_ = 0;
  unsigned group_shift_ = 64;  // 64 - log2(the number of groups of 16 cells)

  std::size_t home(std::uint32_t slot) const {
    // Slots in blocks of 16 consecutive numbers: a block's slots in a group of 16 consecutive
    // cells, the blocks spread over the groups by Fibonacci hashing. The slots a tag holds are the
    // Saves of one or two bodies, numbered consecutively and saved and taken in about their order:
    // a gradient's 10^5 saves and takes then walk memory a block at a time (spread one by one, each
    // missed the cache: 2 * 10^5 values in 8 MiB). (The slot itself as the home would pile up slots
    // k, k + capacity, ... when the slots' range exceeds the table.) The group is the product's top
    // bits (Knuth's multiplicative hashing; its middle bits sent (a)'s 12,500 blocks to 7,090 of
    // 65,536 groups).
    const std::uint64_t product = std::uint64_t{slot >> 4} * 0x9E3779B97F4A7C15ull;
    const std::uint64_t group = group_shift_ == 64 ? 0 : product >> group_shift_;
    return static_cast<std::size_t>((group << 4) | (slot & 15));
  }
  std::size_t next(std::size_t i) const { return (i + 1) & (cells_.size() - 1); }

  // Drops the taken cells: at least 4 cells per value held then (twice the cells when there
  // are no taken ones), and room for the insert that asked.
  void rehash() {
    std::size_t capacity = 16;
    group_shift_ = 64;
    while (capacity < 4 * size_) {
      capacity *= 2;
      --group_shift_;
    }
    std::vector<Cell> old = std::move(cells_);
    cells_.assign(capacity, Cell{});
    size_ = 0;
    taken_ = 0;
    for (const Cell& c : old)
      if (c.slot != kEmpty && c.slot != kTaken) insert(c.slot, c.value);
  }
};

}  // namespace adlang::graph
