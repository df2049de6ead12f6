// Renaming apart, substitution and alpha-equivalence.
#include "lang/rename.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "checker/rapidcheck_generators.hpp"
#include "lang/alpha.hpp"
#include "lang/free_vars.hpp"
#include "lang/printer.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

// Every binder in t, in order.
void binders(const Term& t, std::vector<Name>& out) {
  switch (t.kind()) {
    case TermKind::Let:
      out.push_back(t.as<Let>()->var);
      binders(t.as<Let>()->bound, out);
      binders(t.as<Let>()->body, out);
      return;
    case TermKind::Add:
      binders(t.as<Add>()->lhs, out);
      binders(t.as<Add>()->rhs, out);
      return;
    case TermKind::Op:
      binders(t.as<OpApp>()->arg, out);
      return;
    case TermKind::Pair:
      binders(t.as<Pair>()->first, out);
      binders(t.as<Pair>()->second, out);
      return;
    case TermKind::Fst:
      binders(t.as<Fst>()->arg, out);
      return;
    case TermKind::Snd:
      binders(t.as<Snd>()->arg, out);
      return;
    default:
      return;
  }
}

TEST(Rename, ShadowedBindersGetFreshNames) {
  test::Checked c = test::check("let y: real = x in let y: real = y + 1 in y * y", {{"x", "1"}});
  Term r = rename_apart(c.term, {}, c.names);
  EXPECT_EQ(print_term(r), "let y: real = x in\nlet y_1: real = y + 1 in\ny_1 * y_1");
  EXPECT_TRUE(alpha_equivalent(c.term, r));
}

TEST(Rename, BindersAvoidTheGivenNames) {
  test::Checked c = test::check("let y: real = 1 in y", {});
  Term r = rename_apart(c.term, {Name("y")}, c.names);
  EXPECT_EQ(print_term(r), "let y_1: real = 1 in\ny_1");
}

TEST(Rename, SubstitutionAvoidsCapture) {
  test::Checked c = test::check("let y: real = 1 in x + y", {{"x", "1"}});
  Term r = substitute(c.term, Name("x"), mk::var(Name("y"), Type::real()), c.names);
  EXPECT_EQ(print_term(r), "let y_1: real = 1 in\ny + y_1");
}

TEST(Rename, SubstitutionStopsAtShadowingBinders) {
  test::Checked c = test::check("x + (let x: real = 2 in x)", {{"x", "1"}});
  Term r = substitute(c.term, Name("x"), mk::literal("5"), c.names);
  EXPECT_EQ(print_term(r), "5 + (let x: real = 2 in\n x)");
}

TEST(Alpha, BoundNamesDoNotMatterFreeNamesDo) {
  Term a = test::check("let y: real = x in y", {{"x", "1"}}).term;
  Term b = test::check("let z: real = x in z", {{"x", "1"}}).term;
  Term c = test::check("let z: real = w in z", {{"w", "1"}}).term;
  EXPECT_TRUE(alpha_equivalent(a, b));
  EXPECT_FALSE(alpha_equivalent(a, c));
}

// A pass returns the very same node when it changes nothing (docs/style.md item 3).
RC_GTEST_PROP(Rename, UnchangedTermsAreReturnedAsTheSameNode, ()) {
  gen::GeneratedProgram p = *gen::program(gen::GenConfig{});
  NameSupply names;
  Term r = rename_apart(p.term, {}, names);
  Term again = rename_apart(r, {}, names);
  RC_ASSERT(again.same_as(r));
  RC_ASSERT(substitute(p.term, Name("not_free"), mk::literal("1"), names).same_as(p.term));
}

// Renaming apart preserves meaning (alpha) and makes binders distinct.
RC_GTEST_PROP(Rename, RenameApartIsAlphaEquivalentWithDistinctBinders, ()) {
  gen::GenConfig cfg;
  std::vector<TypedName> vars = {{Name("x"), Type::real()}, {Name("y"), Type::real()}};
  Term t = *gen::trace_term(Type::real(), vars, cfg);
  NameSupply names;
  Term r = rename_apart(t, {Name("x")}, names);
  RC_ASSERT(alpha_equivalent(t, r));
  std::vector<Name> bs;
  binders(r, bs);
  NameSet seen = free_vars(r);
  seen.insert(Name("x"));
  for (const Name& b : bs)
    RC_ASSERT(seen.insert(b).second);
}

}  // namespace
}  // namespace adlang
