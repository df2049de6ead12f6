// The store of saved values of reverse mode in the graph (docs/graph-ad.md): values kept by a
// forward activation's Save nodes under (slot, tag) for the adjoint activation of the same tag,
// whose Loads take them. Used by executor.cpp (the reference executor keeps its own map).
#pragma once

#include <cstdint>
#include <mutex>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "semantics/graph/budgets.hpp"
#include "semantics/graph/frame_memory.hpp"
#include "semantics/graph/slot_table.hpp"

namespace adlang::graph {

// A tag of the store: the list of call-site elements from the frame that owns the root (an rd's
// host) down to an activation, as a trie. The forward and the adjoint activations of the same
// call have the same tag (the adjoint site's element is its forward site), so the adjoint takes
// what the forward saved. A tag is freed when no frame has it and it holds nothing.
//
// A trie as deep as the recursion has a tag per activation, so a tag allocates nothing of its
// own in the common case: its children are a list through `sibling`, and its first kInline
// values are held in place (an activation saves a few: 4 and 6 per step of docs/performance.md's
// recursion); only the values beyond them go to `more`, a table by slot (slot_table.hpp: a body
// that saves thousands of values in one activation, as an rd over many inputs does, takes each in
// O(1)). Tags are carved from the executor's chunks (frame_memory.hpp, ChunkSource) and reused
// through a free list.
struct TagNode {
  static constexpr std::uint32_t kInline = 8;
  TagNode* parent;
  TagNode* child;    // the first child
  TagNode* sibling;  // the next child of the parent
  std::uint32_t key;
  std::uint32_t refs;   // frames whose tag this is
  std::uint32_t count;  // values held in place (at most kInline)
  std::uint32_t slots[kInline];
  double values[kInline];
  SlotTable* more;  // values saved while the places were full, or null

  bool empty() const { return count == 0 && (!more || more->size() == 0) && child == nullptr; }
};
static_assert(std::is_trivially_destructible_v<TagNode>);

// The store: the tries of tags that frames own, and their values. With several threads every
// operation takes the store's lock.
class SavedValues {
 public:
  SavedValues(bool threaded, ChunkSource& memory, const RunClock& clock)
      : threaded_(threaded), memory_(memory), clock_(clock) {}
  // A run that ended by an exception (a budget, an internal error) leaves tags. (A run that
  // exceeded its bound may leave a trie too large to walk within it: its tags go with the
  // chunks, and only their tables by slot are lost.)
  ~SavedValues();
  SavedValues(const SavedValues&) = delete;
  SavedValues& operator=(const SavedValues&) = delete;

  // A root tag: the tag of a frame of a body that uses the store, entered untagged.
  TagNode* new_root() { return new_tag(nullptr, 0); }
  // The tag of a frame entered from a frame of tag `parent` by a site of tag element `key`.
  TagNode* enter(TagNode* parent, std::uint32_t key);
  // A frame leaves its tag t.
  void leave(TagNode* t);
  // Keeps v under (slot, t).
  void save(TagNode* t, std::uint32_t slot, double v);
  // Takes what is kept under (slot, t): a predicate's slot always holds its value, a
  // cotangent's may hold nothing (it reads 0).
  double take(TagNode* t, std::uint32_t slot, bool predicate);

  std::uint64_t saved() const { return saved_; }
  std::uint64_t peak_values() const { return peak_values_; }
  std::uint64_t peak_bytes() const { return peak_bytes_; }

 private:
  std::unique_lock<std::mutex> lock() {
    return threaded_ ? std::unique_lock<std::mutex>(mu_) : std::unique_lock<std::mutex>();
  }
  void grew();
  TagNode* alloc_tag(TagNode* parent, std::uint32_t key);
  void free_tag(TagNode* t);
  TagNode* new_tag(TagNode* parent, std::uint32_t key);
  static bool unreachable(const TagNode* t);
  static void unlink(TagNode* t);
  bool drop_unreachable(TagNode* top);
  void walked(std::uint64_t& steps) const;
  void drop_values(TagNode* t);
  void destroy_tags(TagNode* root);

  const bool threaded_;
  ChunkSource& memory_;
  const RunClock& clock_;
  std::mutex mu_;                       // threaded: everything below
  std::unordered_set<TagNode*> roots_;  // the tries of tags that frames own
  std::vector<TagNode*> free_tags_;     // tags freed, for reuse
  Chunks chunk_;                        // the memory tags are carved from
  std::uint64_t saved_ = 0, values_ = 0, tags_ = 0, spilled_bytes_ = 0;
  std::uint64_t peak_values_ = 0, peak_bytes_ = 0;
};

}  // namespace adlang::graph
