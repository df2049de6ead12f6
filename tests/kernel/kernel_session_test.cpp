// The kernel's cells without Jupyter: how a cell splits into inputs (cli/kernel_cell.hpp), what
// a KernelSession sends for them (cli/kernel_session.hpp), and the session's snapshot that
// carries definitions from a cell's process back to the kernel.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/kernel_cell.hpp"
#include "cli/kernel_session.hpp"

namespace adlang {
namespace {

struct Recorded {
  std::string kind, a, b;
  std::vector<std::string> more;
};

class RecordingOutputs : public CellOutputs {
 public:
  std::vector<Recorded> items;
  void stream(const std::string& name, const std::string& text) override {
    items.push_back({"stream", name, text, {}});
  }
  void display(const std::vector<std::pair<std::string, std::string>>& bundle) override {
    Recorded r{"display", "", "", {}};
    for (const auto& [type, content] : bundle)
      r.more.push_back(type);
    items.push_back(r);
  }
  void error(const std::string& ename, const std::string& evalue,
             const std::vector<std::string>& traceback) override {
    items.push_back({"error", ename, evalue, traceback});
  }
};

TEST(KernelCell, DefinitionsTermsAndCommandsInOrder) {
  auto in = split_cell(
      "def sq(x: real): real =\n  x * x;\n\nlet y: real = 2 in\n  sq(y)\n:set\nsq(1)");
  ASSERT_EQ(in.size(), 4u);
  EXPECT_EQ(in[0].text, "def sq(x: real): real =\n  x * x;");
  EXPECT_EQ(in[0].text_line, 1u);
  EXPECT_EQ(in[1].text, "let y: real = 2 in\n  sq(y)");  // a term over two lines
  EXPECT_EQ(in[1].text_line, 4u);
  EXPECT_EQ(in[2].text, ":set");
  EXPECT_EQ(in[3].text, "sq(1)");
  EXPECT_EQ(in[3].text_line, 7u);
}

TEST(KernelCell, ATermGoesOnWhileUnfinishedOrIndented) {
  auto in = split_cell("1 + 2\n3 + 4\nsq(1)\n  + 2\n\n(1,\n2)\n-- a comment\n5");
  ASSERT_EQ(in.size(), 5u);
  EXPECT_EQ(in[0].text, "1 + 2");
  EXPECT_EQ(in[1].text, "3 + 4");
  EXPECT_EQ(in[2].text, "sq(1)\n  + 2");
  EXPECT_EQ(in[3].text, "(1,\n2)");
  EXPECT_EQ(in[3].text_line, 6u);
  EXPECT_EQ(in[4].text, "-- a comment\n5");
}

TEST(KernelCell, MagicsTakeTheirTerm) {
  auto in = split_cell("%diff x\ndef f(x: real): real = x;\nf(x) * x\n%trace f(2)\n%check 7");
  ASSERT_EQ(in.size(), 4u);
  EXPECT_EQ(in[0].magic, "");  // the definition runs first
  EXPECT_EQ(in[1].magic, "diff");
  EXPECT_EQ(in[1].args, "x");
  EXPECT_EQ(in[1].text, "f(x) * x");
  EXPECT_EQ(in[1].text_line, 3u);
  EXPECT_EQ(in[2].magic, "trace");
  EXPECT_EQ(in[2].text, "f(2)");
  EXPECT_EQ(in[3].magic, "check");
  EXPECT_EQ(in[3].args, "7");
  EXPECT_EQ(in[3].text, "");
  auto set = split_cell("%set precision 50");
  ASSERT_EQ(set.size(), 1u);
  EXPECT_EQ(set[0].text, ":set precision 50");
}

TEST(KernelCell, AMagicWithoutItsTermIsKeptToBeReported) {
  auto in = split_cell("%den\n%trace\n1 + 2");
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(in[0].magic, "den");
  EXPECT_EQ(in[0].text, "");
  EXPECT_EQ(in[1].magic, "trace");
  EXPECT_EQ(in[1].text, "1 + 2");
}

TEST(KernelCell, CompleteUnlessADefinitionIsOpen) {
  EXPECT_TRUE(cell_is_complete("def f(x: real): real = x;\nf(1)"));
  EXPECT_FALSE(cell_is_complete("def f(x: real): real =\n  x"));
}

TEST(KernelSession, OutputsPicturesAndTheFirstError) {
  KernelSession s;
  RecordingOutputs out;
  EXPECT_EQ(s.run_cell("def sq(x: real): real = x * x;\n%env x=3\nsq(x)\n%trace sq(x)", 4, out),
            0);
  ASSERT_EQ(out.items.size(), 3u);
  EXPECT_EQ(out.items[0].b, "9\n");
  EXPECT_EQ(out.items[1].kind, "stream");  // the trace term
  EXPECT_EQ(out.items[2].kind, "display");
  EXPECT_EQ(out.items[2].more, (std::vector<std::string>{"image/svg+xml", "text/plain"}));

  RecordingOutputs bad;
  EXPECT_EQ(s.run_cell("sq(1)\nsq((1, 2))\nsq(2)", 5, bad), 3);
  ASSERT_EQ(bad.items.size(), 2u);  // the third input does not run
  EXPECT_EQ(bad.items[1].kind, "error");
  EXPECT_EQ(bad.items[1].a, "CompileError");
  EXPECT_EQ(bad.items[1].b.rfind("In[5]:2:", 0), 0u) << bad.items[1].b;
  ASSERT_FALSE(bad.items[1].more.empty());
  EXPECT_NE(bad.items[1].more.back().find('^'), std::string::npos);

  RecordingOutputs unknown;
  EXPECT_EQ(s.run_cell("%nope", 6, unknown), 2);
  ASSERT_EQ(unknown.items.size(), 1u);
  EXPECT_EQ(unknown.items[0].a, "UsageError");
}

TEST(KernelSession, TheSnapshotCarriesDefinitionsInputsAndSettings) {
  KernelSession a;
  RecordingOutputs ignored;
  a.run_cell("def sq(x: real): real = x * x;\n%env y=2\n%set precision 50\n%set fuel 99", 1,
             ignored);
  KernelSession b;
  b.session().restore(a.session().snapshot());
  EXPECT_EQ(b.session().snapshot(), a.session().snapshot());
  RecordingOutputs out;
  EXPECT_EQ(b.run_cell("sq(y) / 3\n%set", 2, out), 0);
  ASSERT_EQ(out.items.size(), 2u);
  EXPECT_EQ(out.items[0].b, "1.333333333333333333333333333333333333333333333333335\n");
  EXPECT_NE(out.items[1].b.find("fuel 99\n"), std::string::npos);
}

}  // namespace
}  // namespace adlang
