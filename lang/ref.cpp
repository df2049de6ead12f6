#include "lang/ref.hpp"

namespace adlang {

// Nodes whose last reference went away, deleted one at a time by the outermost release().
class DeletionQueue {
 public:
  static void push(const RefCounted* node) {
    node->next_pending_ = head_;
    head_ = node;
    if (draining_) return;
    draining_ = true;
    while (head_) {
      const RefCounted* n = head_;
      head_ = n->next_pending_;
      delete n;  // May push children onto the queue; they are deleted by this loop.
    }
    draining_ = false;
  }

 private:
  static thread_local const RefCounted* head_;
  static thread_local bool draining_;
};

thread_local const RefCounted* DeletionQueue::head_ = nullptr;
thread_local bool DeletionQueue::draining_ = false;

void RefCounted::release() const {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) DeletionQueue::push(this);
}

}  // namespace adlang
