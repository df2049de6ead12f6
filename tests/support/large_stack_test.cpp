// The large stack the passes run on (support/stack.hpp): its size, and the huge pages its deep
// part is advised to take.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "support/stack.hpp"

namespace adlang {
namespace {

// One mapping of /proc/self/smaps: its address range and its VmFlags.
struct Mapping {
  std::uintptr_t begin = 0, end = 0;
  std::vector<std::string> flags;
  bool has(const std::string& flag) const {
    for (const std::string& f : flags)
      if (f == flag) return true;
    return false;
  }
};

std::vector<Mapping> mappings() {
  std::vector<Mapping> all;
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  while (std::getline(smaps, line)) {
    std::istringstream in(line);
    std::string first;
    in >> first;
    if (first == "VmFlags:") {
      std::string f;
      while (in >> f)
        all.back().flags.push_back(f);
      continue;
    }
    const std::size_t dash = first.find('-');
    if (dash == std::string::npos || first.back() == ':') continue;  // a field of the mapping
    Mapping m;
    m.begin = std::stoull(first.substr(0, dash), nullptr, 16);
    m.end = std::stoull(first.substr(dash + 1), nullptr, 16);
    all.push_back(m);
  }
  return all;
}

std::optional<Mapping> mapping_containing(std::uintptr_t a, const std::vector<Mapping>& all) {
  for (const Mapping& m : all)
    if (m.begin <= a && a < m.end) return m;
  return std::nullopt;
}

std::optional<Mapping> mapping_ending_at(std::uintptr_t a, const std::vector<Mapping>& all) {
  for (const Mapping& m : all)
    if (m.end == a) return m;
  return std::nullopt;
}

bool kernel_has_huge_pages() {
  return std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good();
}

// A body runs on a stack of kLargeStackBytes: natively a region switched to in this thread, whose
// first 64 MiB (where a body starts) are kept in small pages and whose rest is advised to take
// huge pages, so that a deep recursion faults once per 2 MiB (on a kernel without transparent
// huge pages the advice is refused, and the stack is one mapping); under AddressSanitizer a new
// thread's stack of that size. Twice: a stack taken again (given back to the system in between)
// keeps its advice.
TEST(LargeStack, TheDeepPartOfTheStackMayTakeHugePages) {
  for (int run = 0; run < 2; ++run) {
    std::uintptr_t frame = 0;
    std::vector<Mapping> all;
    run_on_large_stack([&] {
      frame = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
      all = mappings();
    });
    std::optional<Mapping> top = mapping_containing(frame, all);
    ASSERT_TRUE(top.has_value()) << "the body's frame is in no mapping";
    if (kAddressSanitizer) {
      EXPECT_GE(top->end - top->begin, kLargeStackBytes);
      continue;
    }
    EXPECT_FALSE(top->has("hg")) << "the stack's first part takes huge pages";
    if (!kernel_has_huge_pages()) {
      EXPECT_GE(top->end - top->begin, kLargeStackBytes);
      continue;
    }
    EXPECT_TRUE(top->has("nh")) << "the stack's first part is not kept in small pages";
    EXPECT_GE(top->end - top->begin, std::uintptr_t(64) << 20);  // may merge with a neighbour
    std::optional<Mapping> deep = mapping_ending_at(top->begin, all);
    ASSERT_TRUE(deep.has_value()) << "no mapping below the stack's first part";
    EXPECT_TRUE(deep->has("hg")) << "the stack's deep part is not advised to take huge pages";
    EXPECT_EQ(deep->end - deep->begin, kLargeStackBytes - (std::uintptr_t(64) << 20));
  }
}

}  // namespace
}  // namespace adlang
