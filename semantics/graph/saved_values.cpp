#include "semantics/graph/saved_values.hpp"

#include <algorithm>

namespace adlang::graph {

SavedValues::~SavedValues() {
  try {
    for (TagNode* t : roots_)
      destroy_tags(t);
  } catch (const RunBoundExceeded&) {
  }
  memory_.give_back(chunk_);
}

void SavedValues::grew() {
  std::uint64_t bytes = tags_ * sizeof(TagNode) + spilled_bytes_;
  peak_values_ = std::max(peak_values_, values_);
  peak_bytes_ = std::max(peak_bytes_, bytes);
}

// A fresh tag (the store is locked): from the free list, else carved from the store's chunks.
TagNode* SavedValues::alloc_tag(TagNode* parent, std::uint32_t key) {
  TagNode* t;
  if (!free_tags_.empty()) {
    t = free_tags_.back();
    free_tags_.pop_back();
  } else {
    t = static_cast<TagNode*>(memory_.carve(chunk_, sizeof(TagNode), alignof(TagNode)));
  }
  t->parent = parent;
  t->child = nullptr;
  t->sibling = nullptr;
  t->key = key;
  t->refs = 1;
  t->count = 0;
  t->more = nullptr;
  ++tags_;
  grew();
  return t;
}

void SavedValues::free_tag(TagNode* t) {
  drop_values(t);
  --tags_;
  free_tags_.push_back(t);
}

TagNode* SavedValues::new_tag(TagNode* parent, std::uint32_t key) {
  auto l = lock();
  TagNode* t = alloc_tag(parent, key);
  roots_.insert(t);
  return t;
}

// The tag of a frame entered from a frame of tag `parent` by a site of tag element `key`.
TagNode* SavedValues::enter(TagNode* parent, std::uint32_t key) {
  auto l = lock();
  for (TagNode* c = parent->child; c; c = c->sibling) {
    if (c->key == key) {
      ++c->refs;
      return c;
    }
  }
  TagNode* t = alloc_tag(parent, key);
  t->sibling = parent->child;
  parent->child = t;
  return t;
}

// A frame leaves its tag. A root (no parent) is held by the one frame that made it (an rd's
// host), and a tag by the frames whose tag it is; nothing else enters a tag but a frame of its
// parent. So once no frame has a tag or any tag above it, nothing enters it or reads its
// values again (an rd that was undefined before its adjoint ran leaves them), and it can go,
// except where a tag below it is still held: a frame that has sent its last output no longer
// holds its parent (frame.hpp, returned_to) and may still be running, so a host frame can end
// before the activations of its rds do. Their tags, and the tags above them, stay until they
// leave.
void SavedValues::leave(TagNode* t) {
  auto l = lock();
  --t->refs;
  if (t->refs != 0) return;
  if (unreachable(t)) {
    TagNode* up = t->parent;
    if (!drop_unreachable(t) || !up) return;
    t = up;
  }
  // Free the tags that hold nothing and that no frame has, up to the root.
  while (t->parent && t->refs == 0 && t->empty()) {
    TagNode* up = t->parent;
    unlink(t);
    free_tag(t);
    t = up;
  }
  // A root whose host frame has ended, and whose last held tag has now gone.
  if (!t->parent && t->refs == 0 && t->child == nullptr) {
    roots_.erase(t);
    free_tag(t);
  }
}

// Whether no frame has t or a tag above it. (The walk ends at the first held tag: in a run
// of nested activations that is t's parent, whose frame waits for t's.)
bool SavedValues::unreachable(const TagNode* t) {
  for (const TagNode* a = t; a; a = a->parent)
    if (a->refs != 0) return false;
  return true;
}

// Removes t from its parent's children.
void SavedValues::unlink(TagNode* t) {
  TagNode** link = &t->parent->child;
  while (*link != t)
    link = &(*link)->sibling;
  *link = t->sibling;
}

// Frees `top` (unreachable) and the tags below it that no frame has and that have no held tag
// below them; the others (above a held tag) lose their values, which nothing reads any more.
// Children before parents, iteratively: the trie is as deep as the recursion that made it.
// Whether top itself was freed.
bool SavedValues::drop_unreachable(TagNode* top) {
  constexpr std::uint32_t kFreed = UINT32_MAX;  // (refs of a tag freed by this walk)
  std::vector<TagNode*> order, stack{top};
  std::uint64_t steps = 0;
  while (!stack.empty()) {
    walked(steps);
    TagNode* t = stack.back();
    stack.pop_back();
    if (t->refs != 0) continue;  // held: it and its subtree stay as they are
    order.push_back(t);
    for (TagNode* c = t->child; c; c = c->sibling)
      stack.push_back(c);
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    TagNode* t = *it;
    TagNode** link = &t->child;
    while (*link)
      if ((*link)->refs == kFreed) {
        *link = (*link)->sibling;
      } else {
        link = &(*link)->sibling;
      }
    if (t->child != nullptr) {
      drop_values(t);
      continue;
    }
    if (t == top) {
      if (t->parent) {
        unlink(t);
      } else {
        roots_.erase(t);
      }
    }
    free_tag(t);
    t->refs = kFreed;
  }
  return top->refs == kFreed;
}

// A walk over a trie checks the run's bound too (every 4096th tag): a trie is as large as
// the recursion that made it.
void SavedValues::walked(std::uint64_t& steps) const {
  if (clock_.bounded() && (++steps & 4095u) == 0) clock_.check();
}

void SavedValues::drop_values(TagNode* t) {
  if (t->more) {
    values_ -= t->more->size();
    spilled_bytes_ -= t->more->bytes();
    delete t->more;
    t->more = nullptr;
  }
  values_ -= t->count;
  t->count = 0;
}

// What a run that ended by an exception (a budget, an internal error) left in a trie.
// Iteratively: the trie is as deep as the recursion that made it.
void SavedValues::destroy_tags(TagNode* root) {
  std::vector<TagNode*> stack{root};
  std::uint64_t steps = 0;
  while (!stack.empty()) {
    walked(steps);
    TagNode* t = stack.back();
    stack.pop_back();
    for (TagNode* c = t->child; c; c = c->sibling)
      stack.push_back(c);
    free_tag(t);
  }
}

// A slot is saved at most once per tag (one Save node per slot, and an activation fires it at
// most once; a cotangent slot's one Save is the adjoint of its slot's one Load) and taken
// once, by its Load. A value goes to a free place if there is one, else to `more`.
void SavedValues::save(TagNode* t, std::uint32_t slot, double v) {
  auto l = lock();
  ++saved_;
  for (std::uint32_t i = 0; i < t->count; ++i)
    internal_check(t->slots[i] != slot, "a value saved twice by one activation");
  if (t->count < TagNode::kInline) {
    internal_check(!t->more || !t->more->contains(slot), "a value saved twice by one activation");
    t->slots[t->count] = slot;
    t->values[t->count] = v;
    ++t->count;
  } else {
    if (!t->more) t->more = new SlotTable;
    const std::size_t before = t->more->bytes();
    const bool fresh = t->more->insert(slot, v);
    spilled_bytes_ += t->more->bytes() - before;  // (modular: a rebuild may shrink it)
    internal_check(fresh, "a value saved twice by one activation");
  }
  ++values_;
  grew();
}

// A predicate's slot always holds its value (its activation's forward saved it); a
// cotangent's slot may hold nothing (nothing added to it): it reads 0.
double SavedValues::take(TagNode* t, std::uint32_t slot, bool predicate) {
  auto l = lock();
  for (std::uint32_t i = t->count; i-- > 0;) {
    if (t->slots[i] == slot) {
      double v = t->values[i];
      // The last value in place fills the place.
      --t->count;
      t->slots[i] = t->slots[t->count];
      t->values[i] = t->values[t->count];
      --values_;
      return v;
    }
  }
  double v;
  if (t->more && t->more->take(slot, v)) {
    --values_;
    return v;
  }
  internal_check(!predicate, "an adjoint activation found no saved predicate");
  return 0;  // a cotangent's slot that nothing added to
}

}  // namespace adlang::graph
