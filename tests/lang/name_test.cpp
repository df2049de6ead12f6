// Interned names and the supply of fresh names (lang/name.hpp): equal texts give equal names
// however they are made, and fresh() returns the names the plain specification gives.
#include "lang/name.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace adlang {
namespace {

// The specification of NameSupply, on texts: fresh(base) strips one `_<digits>` from base (not
// a leading one; an empty rest becomes "v") and returns stem_k for the next k from 1 per stem
// whose text was not reserved.
class ModelSupply {
 public:
  void reserve(const std::string& n) { taken_.insert(n); }
  std::string fresh(const std::string& base) {
    std::string stem = base;
    std::size_t us = stem.rfind('_');
    if (us != std::string::npos && us + 1 < stem.size() && us > 0 &&
        stem.find_first_not_of("0123456789", us + 1) == std::string::npos)
      stem.resize(us);
    if (stem.empty()) stem = "v";
    unsigned& k = next_[stem];
    for (;;) {
      std::string candidate = stem + "_" + std::to_string(++k);
      if (!taken_.count(candidate)) return candidate;
    }
  }

 private:
  std::set<std::string> taken_;
  std::map<std::string, unsigned> next_;
};

// Texts that stress the split into stem and suffix: suffixes with leading zeros, 0, the largest
// 32-bit number and beyond, suffixes past the supply's bit set (2^20), stems ending in '_'.
rc::Gen<std::string> gen_text() {
  return rc::gen::oneOf(
      rc::gen::element<std::string>("y", "x", "z", "v", "_", "y_", "_3", "y__2", "y_0", "y_01",
                                    "y_3", "y_3_1", "x_1", "x_2", "y_4294967295", "y_4294967296",
                                    "y_1048575", "y_1048576", "y_1048577", "y_99999999999", "a_b",
                                    "y_1x"),
      rc::gen::map(rc::gen::pair(rc::gen::element<std::string>("y", "x", "y_2", "q_"),
                                 rc::gen::inRange(0, 70)),
                   [](const std::pair<std::string, int>& p) {
                     return p.first + "_" + std::to_string(p.second);
                   }));
}

TEST(Name, EqualTextsGiveEqualNames) {
  EXPECT_EQ(Name("y_3"), Name(std::string("y_") + "3"));
  EXPECT_NE(Name("y_3"), Name("y_03"));
  EXPECT_NE(Name("y_3"), Name("y_3_"));
  EXPECT_EQ(Name("y_4294967296").str(), "y_4294967296");
  EXPECT_EQ(Name(""), Name());
  EXPECT_TRUE(Name().empty());
  EXPECT_FALSE(Name("y_1").empty());
}

RC_GTEST_PROP(Name, EqualityIsEqualityOfTexts, ()) {
  const std::string a = *gen_text(), b = *gen_text();
  RC_ASSERT(Name(a).str() == a);
  RC_ASSERT((Name(a) == Name(b)) == (a == b));
  RC_ASSERT((Name(a) < Name(b)) == (a < b));
}

RC_GTEST_PROP(NameSupply, FreshFollowsTheSpecification, ()) {
  NameSupply names;
  ModelSupply model;
  const int steps = *rc::gen::inRange(1, 60);
  for (int i = 0; i < steps; ++i) {
    const std::string text = *gen_text();
    if (*rc::gen::arbitrary<bool>()) {
      names.reserve(Name(text));
      model.reserve(text);
    } else {
      const Name made = names.fresh(text);
      RC_ASSERT(made.str() == model.fresh(text));
      RC_ASSERT(made == Name(made.str()));
    }
  }
}

TEST(NameSupply, SkipsReservedNamesFarOut) {
  NameSupply names;
  names.reserve(Name("y_1"));
  names.reserve(Name("y_2"));
  EXPECT_EQ(names.fresh("y").str(), "y_3");
  EXPECT_EQ(names.fresh("y_9").str(), "y_4");
  EXPECT_EQ(names.fresh("").str(), "v_1");
  NameSupply copy = names;
  EXPECT_EQ(copy.fresh("y").str(), "y_5");
  EXPECT_EQ(names.fresh("y").str(), "y_5");
}

// Names made at once on several threads are still one per text.
TEST(Name, InterningIsThreadSafe) {
  std::vector<std::vector<Name>> made(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < made.size(); ++t)
    threads.emplace_back([&made, t] {
      NameSupply names;
      for (int i = 0; i < 5000; ++i)
        made[t].push_back(i % 2 ? names.fresh("threaded") : Name("threaded_" + std::to_string(i)));
    });
  for (std::thread& th : threads)
    th.join();
  for (std::size_t t = 1; t < made.size(); ++t)
    EXPECT_EQ(made[t], made[0]);
}

}  // namespace
}  // namespace adlang
