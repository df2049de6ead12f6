// The core IR: validating factories (Fig. 1 per node), values and trace terms (Sec. 3).
#include "lang/term.hpp"

#include <gtest/gtest.h>

#include "lang/diagnostics.hpp"
#include "lang/term_size.hpp"
#include "lang/vector_space.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::real_var;

TEST(Term, FactoriesRefuseIllTypedNodes) {
  Term p = mk::pair(real_var("a"), real_var("b"));
  EXPECT_THROW(mk::add(p, real_var("c")), InternalError);
  EXPECT_THROW(mk::op(Op::make(OpKind::Sin), p), InternalError);
  EXPECT_THROW(mk::fst(real_var("a")), InternalError);
  EXPECT_THROW(mk::let(Name("x"), Type::unit(), real_var("a"), real_var("a")), InternalError);
  EXPECT_THROW(mk::if_(mk::bool_const(true), p, real_var("a")), InternalError);
  EXPECT_THROW(mk::rd(p, real_var("a"), Name("x"), Type::real(), real_var("x")), InternalError);
  EXPECT_THROW(mk::pred(Pred::make(PredKind::Lt), real_var("a")), InternalError);
  EXPECT_THROW(mk::literal("1e"), InternalError);
}

TEST(Term, NodesKnowTheirTypes) {
  Term p = mk::pair(real_var("a"), mk::unit());
  EXPECT_EQ(to_string(p.type()), "real * unit");
  EXPECT_EQ(mk::snd(p).type(), Type::unit());
  EXPECT_EQ(mk::rd(real_var("m"), p, Name("x"), p.type(), real_var("m")).type(), p.type());
}

TEST(Term, Values) {
  EXPECT_TRUE(is_value(mk::pair(real_var("a"), mk::pair(mk::literal("1"), mk::unit()))));
  EXPECT_FALSE(is_value(mk::pair(real_var("a"), mk::add(real_var("a"), real_var("a")))));
}

TEST(Term, TraceTermsHaveNoControl) {
  Term t =
      mk::let(Name("x"), Type::real(), mk::literal("1"), mk::add(real_var("x"), real_var("x")));
  EXPECT_TRUE(is_trace_term(t));
  EXPECT_FALSE(is_trace_term(mk::if_(mk::bool_const(true), t, t)));
  EXPECT_FALSE(
      is_trace_term(mk::rd(mk::literal("1"), mk::literal("1"), Name("x"), Type::real(), t)));
}

TEST(Term, ZeroAtEveryType) {
  Type t = Type::pair(Type::real(), Type::pair(Type::unit(), Type::real()));
  EXPECT_EQ(make_zero(t).type(), t);
}

TEST(Term, DeepChainsAreFreedWithoutRecursion) {
  // A million nested lets: releasing the root must not overflow the stack.
  Term t = mk::literal("0");
  for (int i = 0; i < 1000000; ++i)
    t = mk::add(t, mk::literal("1"));
  t = Term();
  SUCCEED();
}

TEST(Term, SizesCountSharingOnce) {
  Term a = mk::add(real_var("x"), real_var("x"));
  Term b = mk::add(a, a);  // a shared
  TermSize s = term_size(b);
  EXPECT_EQ(s.tree, 7);
  EXPECT_EQ(s.dag, 4u);
}

}  // namespace
}  // namespace adlang
