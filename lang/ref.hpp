// Intrusive reference counting for immutable IR nodes.
//
// IR trees can be very deep (a trace of a million-step loop is a chain of a million lets), so a
// node must never be destroyed by recursion: releasing the last reference to a node queues it,
// and one loop per thread deletes queued nodes, whose children are queued in turn.
#pragma once

#include <atomic>
#include <cstddef>
#include <utility>

#include "lang/node_pool.hpp"

namespace adlang {

class RefCounted {
 public:
  RefCounted() = default;
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;
  virtual ~RefCounted() = default;

  // Nodes are made and freed through per-thread lists of blocks (lang/node_pool.hpp). Through a
  // virtual destructor, delete passes the size of the node's own class.
  static void* operator new(std::size_t size) { return allocate_node(size); }
  static void operator delete(void* block, std::size_t size) noexcept { free_node(block, size); }

  void retain() const { refs_.fetch_add(1, std::memory_order_relaxed); }
  // Drops one reference; the last one schedules the node for (iterative) deletion.
  void release() const;

 private:
  friend class DeletionQueue;
  mutable std::atomic<int> refs_{0};
  mutable const RefCounted* next_pending_ = nullptr;
};

// A shared, immutable pointer to a RefCounted node. Cheap to copy; null when default-made.
template <class T>
class Ref {
 public:
  Ref() = default;
  Ref(const T* p) : p_(p) {  // NOLINT(google-explicit-constructor): Halide-style handles.
    if (p_) p_->retain();
  }
  Ref(const Ref& o) : p_(o.p_) {
    if (p_) p_->retain();
  }
  Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <class U>
  Ref(const Ref<U>& o) : Ref(o.get()) {}  // NOLINT(google-explicit-constructor)
  ~Ref() {
    if (p_) p_->release();
  }
  Ref& operator=(Ref o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }

  const T* get() const { return p_; }
  const T* operator->() const { return p_; }
  const T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  bool same_as(const Ref& o) const { return p_ == o.p_; }

 private:
  const T* p_ = nullptr;
};

}  // namespace adlang
