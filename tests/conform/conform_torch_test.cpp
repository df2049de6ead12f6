// adlang conform on PyTorch (Debian's python3-torch, scripts/install-deps.sh): a seeded random
// run reports its classes and no disagreement; a deliberately wrong adapter that negates
// gradients is caught with a shrunk counterexample; the curated suite's relu-at-0 and
// `if x = 0` families are system-defined where the semantics is undefined, by a strict tie.
#include <gtest/gtest.h>

#include <sstream>

#include "checker/term_edit.hpp"
#include "conform/conformance.hpp"
#include "conform/suite.hpp"
#include "support/stack.hpp"
#include "support/test_support.hpp"

namespace adlang::conform {
namespace {

std::size_t count(const ConformReport& r, ConformClass c) {
  return r.counts[static_cast<std::size_t>(c)];
}

std::string table(const ConformReport& r) {
  std::ostringstream s;
  print_report(r, s);
  return s.str();
}

TEST(ConformTorch, SeededRunReportsItsClasses) {
  Adapter torch(adapter_command("torch"), 20);
  ConformOptions o;
  o.count = 40;
  o.seed = 1;
  ConformReport r;
  run_on_large_stack([&] { r = run_conformance(torch, o, {}); });
  EXPECT_EQ(r.programs, 40u);
  std::uint64_t total = 0;
  for (std::uint64_t n : r.counts)
    total += n;
  EXPECT_EQ(total, 40u);
  EXPECT_EQ(count(r, ConformClass::Disagree), 0u) << table(r);
  EXPECT_GT(count(r, ConformClass::Agree), 10u) << table(r);
  EXPECT_NE(r.system.find("torch 1."), std::string::npos);
  EXPECT_EQ(r.adapter_restarts, 0u);
}

TEST(ConformTorch, NegatedGradientsAreCaughtAndShrunk) {
  Adapter wrong("exec /usr/bin/python3 " + test::source_dir() +
                    "/tests/conform/adapters/negating_torch_adapter.py",
                20);
  ConformOptions o;
  o.count = 12;
  o.seed = 1;
  o.properties = {ConformProperty::Gradient};
  ConformReport r;
  run_on_large_stack([&] { r = run_conformance(wrong, o, {}); });
  ASSERT_FALSE(r.disagreements.empty()) << table(r);
  const Disagreement& d = r.disagreements.front();
  EXPECT_LE(checker::node_count(d.shrunk.program.term),
            checker::node_count(d.original.program.term));
  EXPECT_EQ(d.shrunk.cls, ConformClass::Disagree);
  EXPECT_NE(d.witnesses.find("denotation (50 digits)"), std::string::npos) << d.witnesses;
  EXPECT_NE(d.witnesses.find("the system is wrong"), std::string::npos) << d.witnesses;
  EXPECT_NE(d.python_text.find("torch.autograd.grad"), std::string::npos);
}

const ProgramVerdict& find_case(const ConformReport& r, const std::string& name) {
  for (const ProgramVerdict& v : r.cases)
    if (v.suite_case == name) return v;
  throw std::runtime_error("no case " + name);
}

TEST(ConformTorch, CuratedSuite) {
  Adapter torch(adapter_command("torch"), 20);
  ConformReport r = run_suite(torch, test::source_dir() + "/conform/suite");
  EXPECT_EQ(count(r, ConformClass::Disagree), 0u) << table(r);
  for (const char* name : {"relu-at-0", "if-x-eq-0-at-0"}) {
    const ProgramVerdict& v = find_case(r, name);
    EXPECT_EQ(v.cls, ConformClass::SystemDefinedWhereUndefined) << name << "\n" << table(r);
    EXPECT_EQ(v.reason, "strict tie") << name;
  }
  for (const char* name : {"relu-at-1", "relu-at-minus-1", "if-x-eq-0-at-1"})
    EXPECT_EQ(find_case(r, name).cls, ConformClass::Agree) << name << "\n" << table(r);
}

}  // namespace
}  // namespace adlang::conform
