// Frame memory of the graph's executor (docs/graph.md, "A frame counts what keeps it alive"):
// the chunks that frames (frame.hpp) and the store's tags are carved from. Used by executor.cpp
// only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

#include "lang/diagnostics.hpp"
#include "support/memory_regions.hpp"

namespace adlang::graph {

// The regions graph executors of this thread take their frames' and tags' chunks from (their
// workers' threads too, under the executor's lock). They are not MappedRegions::here(), which
// the tape of a host Rd node's evaluation takes from, without a lock, on worker 0: the calling
// thread.
inline MappedRegions& graph_regions() {
  thread_local MappedRegions regions;
  return regions;
}

// An allocator of whole cache lines: the arrays a worker writes at every call (its work list,
// its free lists) are allocated by the thread that makes the executor, in the same heap as the
// other worker's, and two of them sharing a line made the two workers write one line
// alternately: fib(27) at 2 threads ran in 17 ms or, in about a third of the runs, 23-35 ms.
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::size_t kLine = 64;
  CacheLineAllocator() = default;
  template <class U>
  explicit CacheLineAllocator(const CacheLineAllocator<U>&) {}
  static std::size_t bytes(std::size_t n) { return (n * sizeof(T) + kLine - 1) / kLine * kLine; }
  T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new (bytes(n), std::align_val_t{kLine}));
  }
  void deallocate(T* p, std::size_t) { ::operator delete (p, std::align_val_t{kLine}); }
  template <class U>
  bool operator==(const CacheLineAllocator<U>&) const {
    return true;
  }
};

// Memory that frames and tags are carved from: regions of at least 8 MiB in huge pages.
struct Chunks {
  std::vector<MappedRegions::Region> chunks;
  char* at = nullptr;
  std::size_t left = 0;
};

// The graph's regions of the thread that runs the executor: its workers' threads, made per
// run, take their chunks from them too (under a lock with several threads), so that they reuse
// memory earlier runs touched. Chunks are given back when the executor ends.
class ChunkSource {
 public:
  explicit ChunkSource(bool threaded) : threaded_(threaded) {}

  // Frames are carved from large chunks (growing the heap one frame at a time is slow in
  // the commands' worker thread, whose malloc arena grows by mprotect).
  // Frames take whole cache lines (align 64: no false sharing between workers); tags, which
  // only the store's lock holder touches, are packed (align 8).
  void* carve(Chunks& c, std::size_t size, std::size_t align = 64) {
    size = (size + align - 1) & ~(align - 1);
    if (size > c.left) {
      // Chunks of at least 8 MiB in transparent huge pages (MappedRegions): first touches of
      // fresh memory (page faults) dominate deep recursions, and a huge page takes one fault
      // per 2 MiB; regions kept from earlier runs take none.
      MappedRegions::Region r = take(std::max<std::size_t>(size, std::size_t(8) << 20));
      c.chunks.push_back(r);
      c.at = static_cast<char*>(r.at);
      internal_check(std::uint64_t(reinterpret_cast<std::uintptr_t>(c.at)) + r.bytes <
                         (std::uint64_t(1) << 48),
                     "a frame lies above 2^48");
      c.left = r.bytes;
    }
    void* p = c.at;
    c.at += size;
    c.left -= size;
    return p;
  }

  // The chunks are kept for the next runs (MappedRegions): fresh memory costs a page fault per
  // page and its zeroing, which dominated deep recursions, as it does for the tape.
  void give_back(Chunks& c) {
    for (MappedRegions::Region r : c.chunks)
      regions_.give(r);
    c = Chunks{};
  }

 private:
  MappedRegions::Region take(std::size_t bytes) {
    std::unique_lock<std::mutex> l =
        threaded_ ? std::unique_lock<std::mutex>(mu_) : std::unique_lock<std::mutex>();
    return regions_.take(bytes);
  }

  MappedRegions& regions_ = graph_regions();
  std::mutex mu_;  // threaded: regions_
  const bool threaded_;
};

}  // namespace adlang::graph
