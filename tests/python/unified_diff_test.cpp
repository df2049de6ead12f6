#include <gtest/gtest.h>

#include "pyrewrite/unified_diff.hpp"

namespace adlang::py {
namespace {

TEST(UnifiedDiff, EqualTextsHaveNoDiff) {
  EXPECT_EQ(unified_diff("a\nb\n", "a\nb\n", "x", "y"), "");
}

TEST(UnifiedDiff, OneInsertion) {
  EXPECT_EQ(unified_diff("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nnew\n5\n6\n7\n8\n", "a/f", "b/f"),
            "--- a/f\n+++ b/f\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+new\n 5\n 6\n 7\n");
}

TEST(UnifiedDiff, ChangeAndSeparateHunks) {
  std::string a, b;
  for (int i = 1; i <= 20; ++i) {
    a += std::to_string(i) + "\n";
    b += (i == 2    ? std::string("two")
          : i == 18 ? std::string("eighteen")
                    : std::to_string(i)) +
         "\n";
  }
  EXPECT_EQ(unified_diff(a, b, "a", "b"),
            "--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"
            "@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+eighteen\n 19\n 20\n");
}

TEST(UnifiedDiff, MissingFinalNewlineIsMarked) {
  EXPECT_EQ(unified_diff("a", "b", "x", "y"),
            "--- x\n+++ y\n@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at "
            "end of file\n");
}

}  // namespace
}  // namespace adlang::py

namespace adlang::py {
namespace {

// A rewrite's diff: many unique lines, insertions spread over the file. Patience anchoring keeps
// this linear (plain Myers needs O((N+M)·D) memory: gigabytes here).
TEST(UnifiedDiff, LargeRewriteIsExactAndCheap) {
  std::string a, b;
  for (int i = 0; i < 20000; ++i) {
    a += "line " + std::to_string(i) + "\n";
    b += "line " + std::to_string(i) + "\n";
    if (i % 4 == 0) b += "    inserted()\n";
  }
  std::string d = unified_diff(a, b, "a", "b");
  std::size_t plus = 0, minus = 0, pos = 0;
  while ((pos = d.find('\n', pos)) != std::string::npos) {
    ++pos;
    if (pos < d.size() && d[pos] == '+' && d.compare(pos, 3, "+++") != 0) ++plus;
    if (pos < d.size() && d[pos] == '-' && d.compare(pos, 3, "---") != 0) ++minus;
  }
  EXPECT_EQ(plus, 5000u);
  EXPECT_EQ(minus, 0u);
}

}  // namespace
}  // namespace adlang::py
