// The adapter protocol's failures (conform/adapter.hpp): a malformed reply, a hanging adapter
// and a crashing adapter each give a clear error for that request, the adapter is restarted,
// and the requests after it are answered (no result is lost).
#include "conform/adapter.hpp"

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace adlang::conform {
namespace {

std::string misbehaving() {
  return "exec /usr/bin/python3 " + test::source_dir() +
         "/tests/conform/adapters/misbehaving_adapter.py";
}

AdapterReply call(Adapter& a, const std::string& entry, const std::string& arg = "1.5") {
  return a.run("", "", {AdapterCall{entry, {arg}}});
}

void expect_answered(Adapter& a, const std::string& arg) {
  AdapterReply r = call(a, "echo", arg);
  ASSERT_EQ(r.status, AdapterReply::Answered) << r.detail;
  ASSERT_EQ(r.results.size(), 1u);
  EXPECT_TRUE(r.results[0].ok);
  EXPECT_EQ(r.results[0].value, arg);
}

TEST(AdapterProtocol, AnswersOverOneProcess) {
  Adapter a(misbehaving(), 5);
  for (int i = 0; i < 5; ++i)
    expect_answered(a, std::to_string(i) + ".5");
  EXPECT_EQ(a.system(), "misbehaving 1");
  EXPECT_EQ(a.language(), "python");
  EXPECT_EQ(a.restarts(), 0u);
}

TEST(AdapterProtocol, MalformedReplyIsReportedAndTheRunGoesOn) {
  Adapter a(misbehaving(), 5);
  expect_answered(a, "1.0");
  AdapterReply r = call(a, "malformed");
  EXPECT_EQ(r.status, AdapterReply::Malformed);
  EXPECT_NE(r.detail.find("this is not JSON"), std::string::npos) << r.detail;
  expect_answered(a, "2.0");
  EXPECT_EQ(a.restarts(), 1u);
}

TEST(AdapterProtocol, HangingAdapterHitsTheTimeLimit) {
  Adapter a(misbehaving(), 1);
  AdapterReply r = call(a, "hang");
  EXPECT_EQ(r.status, AdapterReply::Timeout);
  EXPECT_NE(r.detail.find("no reply within"), std::string::npos) << r.detail;
  expect_answered(a, "3.0");
  EXPECT_EQ(a.restarts(), 1u);
}

TEST(AdapterProtocol, CrashingAdapterIsReportedWithItsErrorOutput) {
  Adapter a(misbehaving(), 5);
  AdapterReply r = call(a, "crash");
  EXPECT_EQ(r.status, AdapterReply::Crashed);
  EXPECT_NE(r.detail.find("crashes on purpose"), std::string::npos) << r.detail;
  expect_answered(a, "4.0");
  EXPECT_EQ(a.restarts(), 1u);
}

TEST(AdapterProtocol, AnAdapterThatCannotStartSaysWhy) {
  Adapter a("echo 'no greeting here' >&2; exit 1", 1);
  try {
    a.start();
    FAIL() << "started";
  } catch (const AdapterUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("no greeting here"), std::string::npos) << e.what();
  }
}

// Without its site packages (-S), /usr/bin/python3 has no torch: the torch adapter's failure
// names the Debian package.
TEST(AdapterProtocol, MissingTorchNamesThePackage) {
  Adapter a("exec /usr/bin/python3 -S " + test::source_dir() + "/conform/adapters/torch_adapter.py",
            5);
  try {
    a.start();
    FAIL() << "started without torch";
  } catch (const AdapterUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("python3-torch"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace adlang::conform
