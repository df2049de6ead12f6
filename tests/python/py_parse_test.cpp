// Parsing through CPython's ast into the C++ mirror: kinds, fields, spans in UTF-8 bytes, the
// whole grammar (match, async, f-strings, type comments), and errors.
#include <gtest/gtest.h>

#include "lang/python/ast/py_parse.hpp"

namespace adlang::py {
namespace {

TEST(PyParse, CallFieldsAndSpans) {
  NodePtr m = parse_module("t.py", "x = f(1, y=2)\n");
  const Node& assign = *m->list("body").at(0);
  ASSERT_TRUE(assign.is(Kind::Assign));
  const Node& call = *assign.child("value");
  ASSERT_TRUE(call.is(Kind::Call));
  EXPECT_EQ(call_func(call).text("id"), "f");
  EXPECT_EQ(call_args(call).size(), 1u);
  ASSERT_NE(find_keyword(call, "y"), nullptr);
  EXPECT_EQ(call.span.line, 1u);
  EXPECT_EQ(call.span.col, 4u);
  EXPECT_EQ(call.span.end_col, 13u);
}

TEST(PyParse, ColumnsAreUtf8Bytes) {
  NodePtr m = parse_module("t.py", "s = 'été'; t = 1\n");
  const Node& second = *m->list("body").at(1);
  EXPECT_EQ(second.span.col, 13u);  // 'été' is 5 characters but 7 bytes
}

TEST(PyParse, ConstantsKeepTheirTypeAndValue) {
  NodePtr m = parse_module("t.py", "a = 'x'\nb = 1.5\nc = None\nd = b'y'\ne = ...\n");
  auto value = [&](int i) -> const Node& { return *m->list("body").at(i)->child("value"); };
  EXPECT_EQ(value(0).constant_type, ConstantType::Str);
  EXPECT_EQ(value(0).str_value, "x");
  EXPECT_EQ(value(1).constant_type, ConstantType::Float);
  EXPECT_EQ(value(1).text("value"), "1.5");
  EXPECT_EQ(value(2).constant_type, ConstantType::None);
  EXPECT_EQ(value(3).constant_type, ConstantType::Bytes);
  EXPECT_EQ(value(4).constant_type, ConstantType::Ellipsis);
}

TEST(PyParse, TheWholeGrammar) {
  const char* src =
      "async def f(a, /, b=1, *c, d, **e) -> int:  # type: ignore\n"
      "    async with g() as h:\n"
      "        async for i in h:\n"
      "            await i\n"
      "    match a:\n"
      "        case [1, *r] | {'k': 2, **kw} | P(x=0) | None as z:\n"
      "            pass\n"
      "    x = f'{a!r:>{b}}'\n"
      "    y = [j async for j in h if j]\n"
      "    return (yield)\n"
      "try:\n"
      "    pass\n"
      "except* ValueError:\n"
      "    pass\n"
      "def g(a):\n"
      "    # type: (int) -> None\n"
      "    global q\n"
      "    del a[1:2, ::3]\n";
  NodePtr m = parse_module("t.py", src);
  ASSERT_EQ(m->list("body").size(), 3u);
  EXPECT_TRUE(m->list("body")[0]->is(Kind::AsyncFunctionDef));
  EXPECT_TRUE(m->list("body")[1]->is(Kind::TryStar));
  EXPECT_EQ(m->list("body")[2]->text("type_comment"), "(int) -> None");
  const Node& match = *m->list("body")[0]->list("body")[1];
  EXPECT_TRUE(match.is(Kind::Match));
  EXPECT_TRUE(match.list("cases")[0]->child("pattern")->is(Kind::MatchAs));
}

TEST(PyParse, ComparisonOperatorsAreNames) {
  NodePtr m = parse_module("t.py", "a < b is not c\n");
  const Node& cmp = *m->list("body")[0]->child("value");
  ASSERT_TRUE(cmp.is(Kind::Compare));
  EXPECT_EQ(cmp.field("ops").names, (std::vector<std::string>{"Lt", "IsNot"}));
}

TEST(PyParse, SyntaxErrorIsACompileError) {
  try {
    parse_module("t.py", "x = (1,\n");
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.diagnostic().loc.line, 1u);
    EXPECT_NE(e.diagnostic().message.find("syntax error"), std::string::npos);
  }
}

TEST(PyParse, FirstInvalidUtf8) {
  EXPECT_FALSE(first_invalid_utf8("ok é\n").known());
  SourceLoc l = first_invalid_utf8("a\nbc\xff");
  EXPECT_EQ(l.line, 2u);
  EXPECT_EQ(l.col, 3u);
  EXPECT_TRUE(first_invalid_utf8("\xc0\x80").known());      // overlong
  EXPECT_TRUE(first_invalid_utf8("\xed\xa0\x80").known());  // surrogate
  EXPECT_TRUE(first_invalid_utf8("\xe2\x82").known());      // truncated
}

}  // namespace
}  // namespace adlang::py
