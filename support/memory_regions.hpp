// The storage of the run-time tape (semantics/compiled/tape.hpp): arrays that long tapes take from
// memory mapped in huge pages, and a stack kept in blocks that grows without moving what it holds.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace adlang {

// Memory mapped directly, in multiples of 2 MiB aligned to 2 MiB and advised (on Linux) to use
// transparent huge pages: the storage of long tapes. Regions given back are kept, up to
// kKeptBytes per thread, for the next tapes rather than returned to the system, since fresh
// memory costs a page fault per page and its zeroing, about as much as taping itself.
class MappedRegions {
 public:
  static constexpr std::size_t kHugePage = std::size_t(2) << 20;
  static constexpr std::size_t kKeptBytes = std::size_t(256) << 20;

  MappedRegions() = default;
  MappedRegions(const MappedRegions&) = delete;
  MappedRegions& operator=(const MappedRegions&) = delete;
  ~MappedRegions() {
    for (const Region& r : kept_)
      munmap(r.at, r.bytes);
  }

  // The regions of the calling thread.
  static MappedRegions& here() {
    thread_local MappedRegions regions;
    return regions;
  }

  struct Region {
    void* at = nullptr;
    std::size_t bytes = 0;
  };
  // A region of at least `bytes` bytes: the smallest one kept that is large enough, else a new
  // one of `bytes` rounded up to 2 MiB.
  Region take(std::size_t bytes) {
    bytes = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    std::size_t best = kept_.size();
    for (std::size_t i = 0; i < kept_.size(); ++i)
      if (kept_[i].bytes >= bytes && (best == kept_.size() || kept_[i].bytes < kept_[best].bytes))
        best = i;
    if (best < kept_.size()) {
      Region r = kept_[best];
      kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(best));
      kept_bytes_ -= r.bytes;
      return r;
    }
    return map(bytes);
  }
  void give(Region r) {
    if (kept_bytes_ + r.bytes > kKeptBytes) {
      munmap(r.at, r.bytes);
      return;
    }
    kept_.push_back(r);
    kept_bytes_ += r.bytes;
  }

 private:
  std::vector<Region> kept_;
  std::size_t kept_bytes_ = 0;

  // Maps a huge page more than needed, and unmaps what lies outside the aligned part.
  static Region map(std::size_t bytes) {
    const std::size_t len = bytes + kHugePage;
    void* raw = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    char* begin = static_cast<char*>(raw);
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(begin);
    char* aligned = begin + ((kHugePage - at % kHugePage) % kHugePage);
    if (aligned > begin) munmap(begin, static_cast<std::size_t>(aligned - begin));
    char* end = aligned + bytes;
    if (begin + len > end) munmap(end, static_cast<std::size_t>(begin + len - end));
#ifdef MADV_HUGEPAGE
    madvise(aligned, bytes, MADV_HUGEPAGE);  // advice only: its failure changes nothing
#endif
    return Region{aligned, bytes};
  }
};

// Storage for n elements of T, default-initialized (scalars are left unwritten). Arrays of
// trivial T of 2 MiB and more (the tapes of long computations) are MappedRegions.
template <class T>
class Array {
 public:
  Array() = default;
  explicit Array(std::size_t n) : data_(allocate(n)) {}
  T* get() const { return data_.get(); }
  T& operator[](std::size_t i) const { return data_[i]; }

 private:
  static constexpr bool kTrivial = std::is_trivial_v<T>;
  struct Free {
    std::size_t mapped = 0;  // the size of its MappedRegions region, if it has one
    void operator()(T* p) const {
      if (mapped != 0)
        MappedRegions::here().give({p, mapped});
      else if constexpr (kTrivial)
        std::free(p);
      else
        delete[] p;
    }
  };
  std::unique_ptr<T[], Free> data_;

  static std::unique_ptr<T[], Free> allocate(std::size_t n) {
    if constexpr (!kTrivial) {
      return std::unique_ptr<T[], Free>(new T[n]);
    } else {
      const std::size_t bytes = std::max<std::size_t>(n, 1) * sizeof(T);
      if (bytes < MappedRegions::kHugePage) {
        void* p = std::malloc(bytes);
        if (p == nullptr) throw std::bad_alloc();
        return std::unique_ptr<T[], Free>(static_cast<T*>(p));
      }
      MappedRegions::Region r = MappedRegions::here().take(bytes);
      return std::unique_ptr<T[], Free>(static_cast<T*>(r.at), Free{r.bytes});
    }
  }
};

// A stack of T kept in blocks, so that it grows without moving what it holds: pushes add runs
// of elements, each contiguous, and a reverse cursor takes the runs back in reverse order.
// Blocks double in size up to 2 MiB (see MappedRegions), so that small tapes stay small.
// clear() empties the stack and keeps its blocks for the next pushes (a tape made anew for
// each of many small derivatives allocates nothing after the first); release() frees them.
// The top block is two pointers (the next element, the end), so a push is one comparison.
template <class T>
class BlockStack {
  struct Block {
    Array<T> data;
    std::size_t size = 0, capacity = 0;  // size: of a block below the top one
  };

 public:
  // Room for a run of n elements at the top, to be written.
  [[gnu::always_inline]] T* push(std::size_t n) {
    if (static_cast<std::size_t>(end_ - at_) < n) add_block(n);
    T* run = at_;
    at_ += n;
    return run;
  }
  void clear() {
    used_ = 0;
    at_ = end_ = nullptr;
  }
  void release() {
    blocks_.clear();
    clear();
  }
  // The bytes of the blocks held, used or kept.
  std::size_t capacity_bytes() const {
    std::size_t n = 0;
    for (const Block& b : blocks_)
      n += b.capacity * sizeof(T);
    return n;
  }
  // The runs of elements, last pushed first.
  class Reverse {
   public:
    Reverse(const std::vector<Block>& blocks, std::size_t used, const T* top, std::size_t size)
        : blocks_(blocks), block_(used), data_(top), pos_(size) {}
    // The previous run of n elements (n as pushed).
    [[gnu::always_inline]] const T* pop(std::size_t n) {
      while (pos_ < n) {
        --block_;
        data_ = blocks_[block_ - 1].data.get();
        pos_ = blocks_[block_ - 1].size;
      }
      pos_ -= n;
      return data_ + pos_;
    }

   private:
    const std::vector<Block>& blocks_;
    std::size_t block_;  // the blocks in use below and at the cursor's
    const T* data_;      // the cursor's block
    std::size_t pos_;
  };
  Reverse reverse() const {
    if (used_ == 0) return Reverse(blocks_, 0, nullptr, 0);
    const T* top = blocks_[used_ - 1].data.get();
    return Reverse(blocks_, used_, top, static_cast<std::size_t>(at_ - top));
  }

 private:
  static constexpr std::size_t kFirstBlock = 256,
                               kMaxBlock =
                                   std::max(kFirstBlock, MappedRegions::kHugePage / sizeof(T));
  std::vector<Block> blocks_;  // the first used_ in use, the others kept empty
  std::size_t used_ = 0;
  T* at_ = nullptr;   // the next element of the top block
  T* end_ = nullptr;  // the end of the top block

  // Out of line: push() is on the hot path of taping, and this is its rare case. The next kept
  // block if it has room for n, else a new one in its place.
  [[gnu::noinline]] void add_block(std::size_t n) {
    if (used_ > 0) {
      Block& top = blocks_[used_ - 1];
      top.size = static_cast<std::size_t>(at_ - top.data.get());
    }
    if (used_ == blocks_.size() || blocks_[used_].capacity < n) {
      blocks_.resize(used_);
      std::size_t cap =
          blocks_.empty() ? kFirstBlock : std::min(2 * blocks_.back().capacity, kMaxBlock);
      cap = std::max(cap, n);
      blocks_.push_back(Block{Array<T>(cap), 0, cap});
    }
    Block& next = blocks_[used_++];
    at_ = next.data.get();
    end_ = at_ + next.capacity;
  }
};

}  // namespace adlang
