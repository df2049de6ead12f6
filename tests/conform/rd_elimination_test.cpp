// The program's own derivative as code (conform/rd_elimination.hpp): on random programs with
// recursion, recursion through rd and rd nested three deep, the rd-free program has the
// original's value, and is undefined exactly where it is.
#include "conform/rd_elimination.hpp"

#include <gtest/gtest.h>

#include "checker/program_generator.hpp"
#include "checker/property_case.hpp"
#include "conform/python_export.hpp"
#include "support/stack.hpp"

namespace adlang::conform {
namespace {

using checker::Case;
using checker::CheckConfig;
using checker::Program;
using checker::Result;

TEST(RdElimination, KeepsTheMeaningOfRandomPrograms) {
  checker::GenConfig g = checker::default_generator(0);
  g.min_inputs = 1;
  g.rd_main = true;
  CheckConfig config;
  config.linear_r = true;
  unsigned compared = 0, undefined = 0;
  run_on_large_stack([&] {
    for (std::uint64_t i = 0; i < 300; ++i) {
      Program p = checker::generate_program(11, i, g);
      Case<double> k(p, config, i);
      Result<double> original = k.run(p.term, p.inputs);
      Term eliminated;
      try {
        eliminated = eliminate_rd(p.term, k.names(), 200000);
      } catch (const ExportTooLarge&) {
        continue;
      }
      ASSERT_TRUE(is_trace_term(eliminated) || eliminated.kind() != TermKind::Rd);
      Result<double> after = k.run(eliminated, p.inputs);
      if (original.state == Result<double>::Resource || after.state == Result<double>::Resource)
        continue;
      ASSERT_EQ(original.defined(), after.defined())
          << checker::program_text(p) << "\noriginal: " << checker::show(original, p.term.type())
          << "\nwithout rd: " << checker::show(after, p.term.type());
      if (!original.defined()) {
        ++undefined;
        continue;
      }
      ASSERT_TRUE(checker::numerics::close(original.value, after.value))
          << checker::program_text(p) << "\noriginal: " << checker::show(original, p.term.type())
          << "\nwithout rd: " << checker::show(after, p.term.type());
      ++compared;
    }
  });
  EXPECT_GT(compared, 150u);
  EXPECT_GT(undefined, 0u);
}

}  // namespace
}  // namespace adlang::conform
