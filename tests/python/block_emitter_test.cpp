// Turning the rules' statement lists into edits of the original text: insertions take the
// indentation of their block, removals take their line (or their ';'), guards wrap a statement,
// bodies on the header's line are opened up, and untouched bytes stay as they are.
#include <gtest/gtest.h>

#include "lang/python/ast/py_parse.hpp"
#include "pyrewrite/block_emitter.hpp"

namespace adlang::py {
namespace {

// Rewrites the body of the first statement of `src` (or the module when `module`) with `make`.
template <typename F>
std::string emit(const std::string& src, bool module, F make) {
  NodePtr m = parse_module("t.py", src);
  SourceLayout layout(src);
  const Node* owner = module ? nullptr : m->list("body").front().get();
  const auto& body = module ? m->list("body") : owner->list("body");
  StmtList out = make(body);
  for (OutStmt& o : out)
    if (!o.source) o.source = o.original;
  return apply_edits(src, emit_block(body, out, layout, owner));
}

TEST(BlockEmitter, KeepingEverythingChangesNothing) {
  std::string src = "x = 1  # c\n\n# lone comment\ny = 2\n";
  EXPECT_EQ(emit(src, true,
                 [](const auto& b) {
                   StmtList l;
                   for (const auto& s : b)
                     l.push_back(OutStmt::keep(*s));
                   return l;
                 }),
            src);
}

TEST(BlockEmitter, InsertsWithTheBlockIndentation) {
  std::string src = "def f():\n    a = 1  # first\n    b = 2\n";
  std::string got = emit(src, false, [](const auto& b) {
    OutStmt before = OutStmt::fresh("pre()");
    before.source = b[1].get();
    OutStmt after = OutStmt::fresh("if x:\n    post()");
    after.source = b[0].get();
    return StmtList{OutStmt::keep(*b[0]), after, before, OutStmt::keep(*b[1])};
  });
  EXPECT_EQ(got, "def f():\n    a = 1  # first\n    if x:\n        post()\n    pre()\n    b = 2\n");
}

TEST(BlockEmitter, UsesTheFilesIndentationUnit) {
  std::string src = "def f():\n  a = 1\n";
  std::string got = emit(src, false, [](const auto& b) {
    OutStmt after = OutStmt::fresh("for i in r:\n    g(i)");
    after.source = b[0].get();
    return StmtList{OutStmt::keep(*b[0]), after};
  });
  EXPECT_EQ(got, "def f():\n  a = 1\n  for i in r:\n    g(i)\n");
}

TEST(BlockEmitter, RemovesAStatementWithItsLine) {
  std::string src = "a = 1\nb = 2  # gone\nc = 3\n";
  EXPECT_EQ(emit(src, true,
                 [](const auto& b) {
                   return StmtList{OutStmt::keep(*b[0]), OutStmt::keep(*b[2])};
                 }),
            "a = 1\nc = 3\n");
}

TEST(BlockEmitter, RemovesAStatementSharingItsLine) {
  std::string src = "a = 1; b = 2; c = 3\n";
  EXPECT_EQ(emit(src, true,
                 [](const auto& b) {
                   return StmtList{OutStmt::keep(*b[0]), OutStmt::keep(*b[2])};
                 }),
            "a = 1; c = 3\n");
  EXPECT_EQ(emit(src, true,
                 [](const auto& b) {
                   return StmtList{OutStmt::keep(*b[0]), OutStmt::keep(*b[1])};
                 }),
            "a = 1; b = 2\n");
}

TEST(BlockEmitter, AnEmptiedBlockGetsPass) {
  std::string src = "if x:\n    a = 1\n    b = 2\nc = 3\n";
  EXPECT_EQ(emit(src, false, [](const auto&) { return StmtList{}; }), "if x:\n    pass\nc = 3\n");
}

TEST(BlockEmitter, GuardWrapsAStatementAndItsContinuationLines) {
  std::string src = "def f():\n    save(a,\n         b)  # keep\n";
  std::string got = emit(src, false, [](const auto& b) {
    OutStmt g = OutStmt::keep(*b[0]);
    g.guard = "r == 0";
    return StmtList{g};
  });
  EXPECT_EQ(got, "def f():\n    if r == 0:\n        save(a,\n             b)  # keep\n");
}

TEST(BlockEmitter, GuardLeavesMultilineStringsAlone) {
  std::string src = "print('''a\nb''')\n";
  std::string got = emit(src, true, [](const auto& b) {
    OutStmt g = OutStmt::keep(*b[0]);
    g.guard = "r == 0";
    return StmtList{g};
  });
  EXPECT_EQ(got, "if r == 0:\n    print('''a\nb''')\n");
}

TEST(BlockEmitter, BodyOnTheHeaderLineIsOpenedUp) {
  std::string src = "if x: print(1)\n";
  std::string got = emit(src, false, [](const auto& b) {
    OutStmt g = OutStmt::keep(*b[0]);
    g.guard = "r == 0";
    return StmtList{g};
  });
  EXPECT_EQ(got, "if x:\n    if r == 0:\n        print(1)\n");
}

TEST(BlockEmitter, InsertionBetweenStatementsOfOneLine) {
  std::string src = "a(); b()\n";
  std::string got = emit(src, true, [](const auto& b) {
    OutStmt n = OutStmt::fresh("new()");
    n.source = b[0].get();
    return StmtList{OutStmt::keep(*b[0]), n, OutStmt::keep(*b[1])};
  });
  EXPECT_EQ(got, "a()\nnew()\nb()\n");
}

TEST(BlockEmitter, ReplacesARemovedStatementByNewOnes) {
  std::string src = "    \nx = f()\n";
  std::string got = emit(src, true, [](const auto& b) {
    OutStmt n1 = OutStmt::fresh("y = 1"), n2 = OutStmt::fresh("z = 2");
    n1.source = n2.source = b[0].get();
    return StmtList{n1, n2};
  });
  EXPECT_EQ(got, "    \ny = 1\nz = 2\n");
}

TEST(BlockEmitter, KeepsWindowsLineEndings) {
  std::string src = "a = 1\r\nb = 2\r\n";
  std::string got = emit(src, true, [](const auto& b) {
    OutStmt n = OutStmt::fresh("c = 3");
    n.source = b[0].get();
    return StmtList{OutStmt::keep(*b[0]), n, OutStmt::keep(*b[1])};
  });
  EXPECT_EQ(got, "a = 1\r\nc = 3\r\nb = 2\r\n");
}

TEST(BlockEmitter, FileWithoutFinalNewline) {
  std::string src = "a = 1";
  std::string got = emit(src, true, [](const auto& b) {
    OutStmt n = OutStmt::fresh("c = 3");
    n.source = b[0].get();
    return StmtList{OutStmt::keep(*b[0]), n};
  });
  EXPECT_EQ(got, "a = 1\nc = 3\n");
}

TEST(BlockEmitter, ReorderingOriginalsIsABug) {
  std::string src = "a = 1\nb = 2\n";
  EXPECT_THROW(emit(src, true,
                    [](const auto& b) {
                      return StmtList{OutStmt::keep(*b[1]), OutStmt::keep(*b[0])};
                    }),
               InternalError);
}

TEST(TextEdits, OverlappingReplacementsAreABug) {
  EXPECT_THROW(apply_edits("abcdef", {{0, 3, "x"}, {2, 4, "y"}}), InternalError);
  EXPECT_EQ(apply_edits("abcdef", {{3, 3, "1"}, {3, 3, "2"}, {0, 1, "A"}, {3, 3, "1"}}),
            "Abc12def");
}

}  // namespace
}  // namespace adlang::py
