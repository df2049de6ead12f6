// adlang serve's request handling (cli/serve_command.hpp): which file a request target names,
// that no target leaves the served folder, and the Content-Types browsers insist on.
#include <gtest/gtest.h>

#include "cli/process.hpp"
#include "cli/serve_command.hpp"
#include "support/exit_codes.hpp"

namespace adlang {
namespace {

TEST(ServeRequestFile, RootAndFoldersNameTheirIndex) {
  EXPECT_EQ(request_file("/site", "/"), "/site/index.html");
  EXPECT_EQ(request_file("/site", "/docs/"), "/site/docs/index.html");
  EXPECT_EQ(request_file("/site", "/playground.js"), "/site/playground.js");
}

TEST(ServeRequestFile, QueryAndFragmentAreNotPartOfThePath) {
  EXPECT_EQ(request_file("/site", "/index.html?v=2"), "/site/index.html");
  EXPECT_EQ(request_file("/site", "/?x#y"), "/site/index.html");
  EXPECT_EQ(request_file("/site", "/a.js#top"), "/site/a.js");
}

TEST(ServeRequestFile, PercentEscapesAreDecoded) {
  EXPECT_EQ(request_file("/site", "/a%20b.ad"), "/site/a b.ad");
  EXPECT_EQ(request_file("/site", "/%41.js"), "/site/A.js");
  EXPECT_EQ(request_file("/site", "/bad%2"), std::nullopt);
  EXPECT_EQ(request_file("/site", "/bad%zz"), std::nullopt);
}

TEST(ServeRequestFile, TraversalIsRefused) {
  EXPECT_EQ(request_file("/site", "/../etc/passwd"), std::nullopt);
  EXPECT_EQ(request_file("/site", "/a/../../x"), std::nullopt);
  EXPECT_EQ(request_file("/site", "/%2e%2e/etc/passwd"), std::nullopt);
  EXPECT_EQ(request_file("/site", "/a/%2E%2E%2Fb"), std::nullopt);
  EXPECT_EQ(request_file("/site", "/..%5cx"), std::nullopt);
  EXPECT_EQ(request_file("/site", "/a%00.html"), std::nullopt);
  EXPECT_EQ(request_file("/site", "/..."), "/site/...");  // a name, not a step up
}

TEST(ServeRequestFile, OnlyAbsolutePathsAreAccepted) {
  EXPECT_EQ(request_file("/site", ""), std::nullopt);
  EXPECT_EQ(request_file("/site", "index.html"), std::nullopt);
  EXPECT_EQ(request_file("/site", "http://example.com/"), std::nullopt);
  EXPECT_EQ(request_file("/site", "*"), std::nullopt);
}

TEST(ServeContentType, ByExtension) {
  const std::pair<const char*, const char*> cases[] = {
      {"/s/adlang_playground.wasm", "application/wasm"},
      {"/s/index.html", "text/html; charset=utf-8"},
      {"/s/worker.js", "text/javascript; charset=utf-8"},
      {"/s/style.css", "text/css; charset=utf-8"},
      {"/s/blob", "application/octet-stream"},
  };
  for (const auto& [file, type] : cases)
    EXPECT_STREQ(content_type(file), type) << file;
}

TEST(ServeCommand, WithoutABuiltPageSaysHowToBuildIt) {
  test::ProcessResult r =
      test::run_process(test::adlang_binary(), {"serve", "--port", "0", "--dir", "/nonexistent"});
  EXPECT_EQ(r.exit_code, kExitUsage);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "adlang: error: no built playground in '/nonexistent'\n"
            "note: build it with scripts/build-web.sh (docs/playground.md), or give its folder "
            "with --dir\n");
}

}  // namespace
}  // namespace adlang
