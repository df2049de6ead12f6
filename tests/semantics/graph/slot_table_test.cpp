// The store's table of spilled values (semantics/graph/slot_table.hpp): against std::map on
// random sequences of saves and takes, including runs that wrap around the table's end, takes
// in the middle of a probe run, and saves into the places of taken values.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>

#include "semantics/graph/slot_table.hpp"

namespace adlang {
namespace {

using graph::SlotTable;

TEST(SlotTable, SavesAndTakes) {
  SlotTable t;
  double v = -1;
  EXPECT_FALSE(t.take(3, v));
  EXPECT_FALSE(t.contains(3));
  EXPECT_TRUE(t.insert(3, 0.5));
  EXPECT_FALSE(t.insert(3, 0.25));  // a slot is saved once
  EXPECT_TRUE(t.contains(3));
  EXPECT_EQ(t.size(), 1u);
  EXPECT_TRUE(t.take(3, v));
  EXPECT_EQ(v, 0.5);
  EXPECT_EQ(t.size(), 0u);
  EXPECT_FALSE(t.take(3, v));
}

// A gradient's forward activation saves consecutive slots and its adjoint takes them in reverse.
TEST(SlotTable, ManyConsecutiveSlotsTakenInReverse) {
  SlotTable t;
  const std::uint32_t n = 200000;
  for (std::uint32_t s = 0; s < n; ++s)
    ASSERT_TRUE(t.insert(s, s * 0.5));
  EXPECT_EQ(t.size(), n);
  EXPECT_LE(t.bytes(), 4 * n * 16u);  // at least a quarter full
  for (std::uint32_t s = n; s-- > 0;) {
    double v = -1;
    ASSERT_TRUE(t.take(s, v));
    ASSERT_EQ(v, s * 0.5);
  }
  EXPECT_EQ(t.size(), 0u);
}

RC_GTEST_PROP(SlotTable, AgreesWithAMap, ()) {
  // Few distinct slots, so that saves of a held slot and takes of a missing one are frequent,
  // and probe runs are long relative to the table.
  const auto ops = *rc::gen::container<std::vector<std::pair<bool, std::uint32_t>>>(
      rc::gen::pair(rc::gen::arbitrary<bool>(), rc::gen::inRange<std::uint32_t>(0, 64)));
  SlotTable t;
  std::map<std::uint32_t, double> model;
  double next = 1;
  for (const auto& [save, slot] : ops) {
    if (save) {
      const bool fresh = model.emplace(slot, next).second;
      RC_ASSERT(t.insert(slot, next) == fresh);
      next += 1;
    } else {
      double v = -1;
      auto it = model.find(slot);
      RC_ASSERT(t.take(slot, v) == (it != model.end()));
      if (it != model.end()) {
        RC_ASSERT(v == it->second);
        model.erase(it);
      }
    }
    RC_ASSERT(t.size() == model.size());
    for (std::uint32_t s = 0; s < 64; ++s)
      RC_ASSERT(t.contains(s) == (model.count(s) == 1));
  }
}

}  // namespace
}  // namespace adlang
