// NewID(): fresh names avoid every name of the module and every name handed out before.
#include <gtest/gtest.h>

#include "lang/python/ast/py_parse.hpp"
#include "pyrewrite/fresh_names.hpp"

namespace adlang::py {
namespace {

TEST(FreshNames, AvoidsEveryKindOfName) {
  NodePtr m = parse_module("t.py",
                           "import a.b as config\nfrom m import gpus\n"
                           "def f(gpu, *, callbacks=1):\n    global optim\n"
                           "class hvd: pass\nx.grads_and_vars = 1\nf(tape=1)\n"
                           "match v:\n    case [*rest] | {**rest2}: pass\n"
                           "try: pass\nexcept E as err: pass\n");
  FreshNames n(*m);
  for (const char* used : {"config", "a", "b", "gpus", "gpu", "callbacks", "optim", "hvd",
                           "grads_and_vars", "tape", "rest", "rest2", "err", "m", "f", "x"})
    EXPECT_TRUE(n.used(used)) << used;
  EXPECT_EQ(n.fresh("hvd"), "hvd_1");
  EXPECT_EQ(n.fresh("hvd"), "hvd_2");
  EXPECT_EQ(n.fresh("fresh"), "fresh");
  EXPECT_EQ(n.fresh("fresh"), "fresh_1");
}

}  // namespace
}  // namespace adlang::py
