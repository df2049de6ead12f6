// The memory of IR nodes (lang/ref.hpp): per-thread lists of the blocks of freed nodes, by size.
//
// The checker makes and frees millions of small nodes (every clause of Fig. 6 makes lets, vars
// and zeros; each evaluation of R's output frees them again), and glibc's free of a block past
// its per-thread cache of 7 blocks a size (the whole trees that a release frees at once) cost
// 15% of the checker's instructions (docs/performance.md Sec. 7). A freed node's block goes
// onto its thread's list for the node's size, up to kPoolBlocks a size, and the next node of
// that size takes it back; larger nodes, and all nodes under AddressSanitizer (whose checks of
// freed memory the lists would hide), use operator new and delete alone. A block may be freed
// on another thread than the one that made it: it then joins that thread's list.
#pragma once

#include <cstddef>

namespace adlang {

// A block of at least `size` bytes, aligned as operator new's.
void* allocate_node(std::size_t size);
// Gives back a block from allocate_node(size), with the same size.
void free_node(void* block, std::size_t size) noexcept;

}  // namespace adlang
