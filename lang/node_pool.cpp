#include "lang/node_pool.hpp"

#include <array>
#include <new>

namespace adlang {

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPooled = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kPooled = false;
#else
constexpr bool kPooled = true;
#endif
#else
constexpr bool kPooled = true;
#endif

constexpr std::size_t kGranule = 16, kClasses = 16;        // blocks of 16, 32, ..., 256 bytes
constexpr std::size_t kPoolBlocks = std::size_t{1} << 14;  // per size and thread

struct FreeBlock {
  FreeBlock* next;
};

// One thread's lists. Destroyed when its thread ends, after which (while the thread's other
// thread-local objects go, or a static one after main returns, frees nodes) `ended` sends every
// block to operator delete.
struct Pool {
  std::array<FreeBlock*, kClasses> head{};
  std::array<std::size_t, kClasses> count{};
  ~Pool();
};

thread_local bool ended = false;  // trivially destructible: readable while the thread ends
thread_local Pool pool;

Pool::~Pool() {
  for (std::size_t c = 0; c < kClasses; ++c)
    while (FreeBlock* b = head[c]) {
      head[c] = b->next;
      ::operator delete(b);
    }
  ended = true;
}

std::size_t size_class(std::size_t size) {
  return (size + kGranule - 1) / kGranule - 1;
}
// What operator new is asked for: the whole block of the size's class.
std::size_t block_size(std::size_t size) {
  const std::size_t c = size_class(size);
  return c < kClasses ? (c + 1) * kGranule : size;
}

}  // namespace

void* allocate_node(std::size_t size) {
  const std::size_t c = size_class(size);
  if (kPooled && c < kClasses && !ended) {
    if (FreeBlock* b = pool.head[c]) {
      pool.head[c] = b->next;
      --pool.count[c];
      return b;
    }
  }
  return ::operator new(block_size(size));
}

void free_node(void* block, std::size_t size) noexcept {
  const std::size_t c = size_class(size);
  if (!kPooled || c >= kClasses || ended || pool.count[c] == kPoolBlocks) {
    ::operator delete(block);
    return;
  }
  pool.head[c] = new (block) FreeBlock{pool.head[c]};
  ++pool.count[c];
}

}  // namespace adlang
