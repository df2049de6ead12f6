// The session API (driver/session.hpp): each action's result as data (the value, the trace and
// the derivative, the failure's kind and diagnostic, the pictures as bytes) beside the text the
// CLI prints for the same work.
#include "driver/session.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "driver/commands.hpp"

namespace adlang {
namespace {

// A session with sq defined and x = 3.
Session session_with_sq() {
  Session s;
  EXPECT_EQ(s.handle("def sq(x: real): real = x * x;", 1).exit_code, 0);
  EXPECT_EQ(s.handle(":env x=3", 2).exit_code, 0);
  return s;
}

TEST(Session, AValueComesWithItsTypeBesideThePrintedText) {
  Session s = session_with_sq();
  CommandResult r = s.handle("(sq(x), x)", 3);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.value, "(9, 3)");
  EXPECT_EQ(r.type, "real * real");
  EXPECT_EQ(r.out, "(9, 3)\n");
  EXPECT_EQ(r.err, "");
  EXPECT_FALSE(r.diagnostic);
}

TEST(Session, ADerivativeComesWithItsTraceAndValue) {
  Session s = session_with_sq();
  CommandResult r = s.handle(":diff sq(x) + x wrt x", 3);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.value, "7");
  ASSERT_TRUE(r.trace && r.derivative);
  // The printed text shows the very terms the result holds.
  EXPECT_NE(r.out.find(*r.trace + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(*r.derivative + "\n"), std::string::npos) << r.out;
  CommandResult t = s.handle(":trace sq(x)", 4);
  EXPECT_EQ(t.trace, "let x: real = x in\nx * x");
  EXPECT_EQ(t.out, *t.trace + "\n");
}

TEST(Session, ATypeErrorIsACompileErrorWhereItWasTyped) {
  Session s = session_with_sq();
  CommandResult r = s.handle("1 +\n  sq((1, 2))", 7);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.error, ErrorKind::Compile);
  EXPECT_STREQ(error_name(r.error), "CompileError");
  ASSERT_TRUE(r.diagnostic);
  EXPECT_EQ(r.diagnostic->origin, "<repl>");
  EXPECT_EQ(r.diagnostic->line, 8u);  // the input's second line
  EXPECT_EQ(r.diagnostic->col, 3u);
  EXPECT_NE(r.diagnostic->message.find("'sq' takes an argument of type 'real'"), std::string::npos)
      << r.diagnostic->message;
  EXPECT_EQ(r.diagnostic->rendered, r.err);
  EXPECT_EQ(r.err.rfind("<repl>:8:3: error: ", 0), 0u) << r.err;
  EXPECT_FALSE(r.value);
}

TEST(Session, AnUndefinedValueNamesTheLineOfItsDefinition) {
  Session s;
  s.handle("def logsq(x: real): real = log(x * x);", 4);
  CommandResult r = s.handle("logsq(1) + logsq(0)", 9);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.error, ErrorKind::Undefined);
  EXPECT_STREQ(error_name(r.error), "Undefined");
  ASSERT_TRUE(r.diagnostic);
  EXPECT_EQ(r.diagnostic->origin, "<repl>");
  EXPECT_EQ(r.diagnostic->line, 4u);
  EXPECT_EQ(r.diagnostic->message, "undefined: log(x) is undefined at x = 0");
}

TEST(Session, ExhaustedResourcesAreUndefinedByTheirExitCode) {
  Session s;
  s.handle(":set fuel 50", 1);
  s.handle("def loop(n: real): real = loop(n + 1);", 2);
  CommandResult r = s.handle("loop(0)", 3);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(exit_code_of(r.error), 1);
  EXPECT_STREQ(error_name(r.error), "Undefined");
}

TEST(Session, UsageErrorsOfTheSessionAndOfAFrontEnd) {
  Session s;
  CommandResult r = s.handle(":nope", 1);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.error, ErrorKind::Usage);
  EXPECT_EQ(r.err, "<repl>: error: unknown command :nope\nnote: :help lists the commands\n");
  ASSERT_TRUE(r.diagnostic);
  EXPECT_EQ(r.diagnostic->message, "unknown command :nope");
  EXPECT_EQ(r.diagnostic->rendered, r.err);

  CommandResult missing = s.handle("y + 1", 2);
  EXPECT_EQ(missing.error, ErrorKind::Usage);
  ASSERT_TRUE(missing.diagnostic);
  EXPECT_EQ(missing.diagnostic->message, "input 'y' has no value");
  EXPECT_EQ(missing.diagnostic->line, 2u);

  s.set_source_name("In[3]");
  CommandResult magic = s.usage_error("%nope: unknown magic");
  EXPECT_EQ(magic.exit_code, 2);
  EXPECT_EQ(magic.err, "In[3]: error: %nope: unknown magic\n");
}

TEST(Session, AFailedDefinitionLeavesTheSessionAsItWas) {
  Session s = session_with_sq();
  const std::string before = s.snapshot();
  CommandResult r = s.handle("def sq(x: real): real = (x, x);", 3);
  EXPECT_EQ(r.error, ErrorKind::Compile);
  EXPECT_EQ(s.snapshot(), before);
  EXPECT_EQ(s.handle("sq(x)", 4).value, "9");
}

TEST(Session, TracePicturesAreSvgBytesInMemory) {
  Session s = session_with_sq();
  CommandResult r = s.trace_picture("sq(x) + 1", 3, "x");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.pictures.size(), 1u);
  EXPECT_EQ(r.pictures[0].format, "svg");
  EXPECT_NE(r.pictures[0].bytes.find("<svg"), std::string::npos);
  EXPECT_NE(r.pictures[0].bytes.find("</svg>"), std::string::npos);
  EXPECT_EQ(r.pictures[0].description,
            "the trace as a graph, with each node's value and its adjoint for x");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
}

TEST(Session, APlotIsAnSvgInMemoryWithTheSamplesOnRequest) {
  Session s;
  CommandResult r = s.plot("x * x", 1, "x", -1, 1, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.pictures.size(), 1u);
  EXPECT_EQ(r.pictures[0].format, "svg");
  EXPECT_NE(r.pictures[0].bytes.find("<svg"), std::string::npos);
  EXPECT_EQ(r.out, "");  // defined everywhere: no line about undefined points
  CommandResult table = s.plot("x * x", 1, "x", -1, 1, true);
  EXPECT_EQ(table.out.rfind("-- x\tprogram\trd\tcentral differences\n", 0), 0u) << table.out;
}

TEST(Session, AFailingPropertyIsCheckFailed) {
  Session s;
  s.handle(":set predicates total", 1);
  s.handle(":env x=0", 2);
  // Under total predicates, correctness-near fails at the tie (tests/golden/repl/check.in).
  CommandResult r = s.handle(":check 1.rd[x](y: real. if y = 0 then y else 0)", 3);
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_EQ(r.error, ErrorKind::CheckFailed);
  EXPECT_STREQ(error_name(r.error), "CheckFailed");
  ASSERT_TRUE(r.diagnostic);
  EXPECT_NE(r.diagnostic->message.find(" failed: "), std::string::npos) << r.diagnostic->message;
}

// The session holds its definitions checked: a later input is checked against them, and one
// that replaces a definition with other types takes the definitions that call it along.
TEST(Session, ReplacingADefinitionWithOtherTypesChecksItsCallersAgain) {
  Session s;
  ASSERT_EQ(s.handle("def f(x: real): real = x;", 1).exit_code, 0);
  ASSERT_EQ(s.handle("def g(x: real): real =\n  f(x) + 1;", 2).exit_code, 0);
  CommandResult r = s.handle("def f(p: real * real): real = 0;", 4);
  EXPECT_EQ(r.error, ErrorKind::Compile);
  ASSERT_TRUE(r.diagnostic);
  EXPECT_EQ(r.diagnostic->origin, "<repl>");
  EXPECT_EQ(r.diagnostic->line, 3u);  // g's call of f, where g was typed
  EXPECT_EQ(r.diagnostic->message,
            "'f' takes an argument of type 'real * real', but is given 'real'");
  EXPECT_EQ(s.handle("g(1)", 5).value, "2");  // the session as it was
  // With the same types, the callers keep their checked bodies and call the new one.
  ASSERT_EQ(s.handle("def f(x: real): real = x * 10;", 6).exit_code, 0);
  EXPECT_EQ(s.handle("g(1)", 7).value, "11");
}

TEST(Session, ARestoredSessionHasItsDefinitionsCheckedAtTheirLines) {
  Session a;
  a.handle("def sq(x: real): real = x * x;", 1);
  a.handle("def logsq(x: real): real =\n  log(sq(x));", 6);
  Session b;
  b.restore(a.snapshot());
  EXPECT_EQ(b.snapshot(), a.snapshot());
  EXPECT_EQ(b.handle(":defs", 9).out, a.handle(":defs", 9).out);
  CommandResult r = b.handle("logsq(0)", 9);
  EXPECT_EQ(r.error, ErrorKind::Undefined);
  ASSERT_TRUE(r.diagnostic);
  EXPECT_EQ(r.diagnostic->line, 7u);
  EXPECT_EQ(r.err.rfind("<repl>:7:3: error: undefined: log(x)", 0), 0u) << r.err;
}

TEST(Session, AFreeVariableInADefinitionIsReportedAsRunReportsIt) {
  Session s;
  CommandResult r = s.handle("def f(x: real): real = x + y;", 2);
  EXPECT_EQ(r.exit_code, 3);  // a function body has no inputs (Fig. 1's letrec rule)
  ASSERT_TRUE(r.diagnostic);
  EXPECT_EQ(r.diagnostic->message, "unbound variable 'y'");
  EXPECT_EQ(r.diagnostic->line, 2u);
  EXPECT_EQ(s.handle(":defs", 3).out, "");
}

// run_captured: one command on a whole program, outside a session (the playground's runs).
TEST(Session, ACommandOnAWholeProgramGivesTheSameResult) {
  RunCommandOptions o;
  o.file = "prog.ad";
  o.source = std::make_shared<SourceFile>(o.file, "def sq(x: real): real = x * x;\nsq(x)");
  o.env = {"x=2"};
  CommandResult r = run_captured<RunCommandOptions>(run_command, o);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.value, "4");
  EXPECT_EQ(r.out, "4\n");

  o.source = std::make_shared<SourceFile>(o.file, "def sq(x: real): real = x * x;\nsq((x, x))");
  CommandResult bad = run_captured<RunCommandOptions>(run_command, o);
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_STREQ(error_name(bad.error), "CompileError");
  ASSERT_TRUE(bad.diagnostic);
  EXPECT_EQ(bad.diagnostic->origin, "prog.ad");
  EXPECT_EQ(bad.diagnostic->line, 2u);
  EXPECT_EQ(bad.err.rfind("prog.ad:2:", 0), 0u) << bad.err;
}

}  // namespace
}  // namespace adlang
