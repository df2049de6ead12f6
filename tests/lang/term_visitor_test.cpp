// The one generic walk over terms (lang/term_visitor.hpp): the order of subterms, rebuilding
// through the factories, a mutator that changes nothing returns the very node it was given
// (docs/style.md item 3), and walks of let chains a million deep without recursion.
#include "lang/term_visitor.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "checker/program_generator.hpp"
#include "lang/printer.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

using test::real_var;

// Replaces every literal 1 by 2 (and changes nothing else).
class OneToTwo : public TermMutator {
 protected:
  Term post(const Term&, const Term& rebuilt) override {
    if (const Literal* l = rebuilt.as<Literal>(); l && l->text == "1")
      return mk::literal("2", rebuilt.loc());
    return rebuilt;
  }
};

// Changes nothing, but walks every node.
class Identity : public TermMutator {
 public:
  std::size_t nodes = 0;

 protected:
  Term post(const Term&, const Term& rebuilt) override {
    ++nodes;
    return rebuilt;
  }
};

TEST(TermVisitor, SubtermsInEvaluationOrder) {
  Term guard_arg = mk::pair(real_var("a"), real_var("b"));
  Term t = mk::if_(mk::pred(Pred::make(PredKind::Lt), guard_arg), real_var("m"), real_var("n"));
  std::vector<Term> k = subterms_of(t);
  ASSERT_EQ(k.size(), 3u);
  EXPECT_TRUE(k[0].same_as(guard_arg));
  EXPECT_EQ(k[1].as<Var>()->name, Name("m"));
  EXPECT_EQ(k[2].as<Var>()->name, Name("n"));
  Term r = mk::rd(mk::literal("1"), mk::literal("2"), Name("x"), Type::real(), real_var("x"));
  EXPECT_EQ(print_term(subterms_of(r)[0]), "1");
  EXPECT_EQ(print_term(subterms_of(r)[1]), "2");
  EXPECT_EQ(print_term(subterms_of(r)[2]), "x");
}

TEST(TermVisitor, WithSubtermsRebuildsOnlyWhenAKidChanges) {
  Term let = mk::let(Name("y"), Type::real(), real_var("a"), mk::add(real_var("y"), real_var("y")));
  EXPECT_TRUE(with_subterms(let, subterms_of(let)).same_as(let));
  Term changed = with_subterms(let, {mk::literal("3"), subterms_of(let)[1]});
  EXPECT_FALSE(changed.same_as(let));
  EXPECT_EQ(print_term(changed), "let y: real = 3 in\ny + y");
  EXPECT_THROW(with_subterms(let, {real_var("a")}), InternalError);
}

TEST(TermVisitor, MutatorKeepsBindersFunctionsAndIds) {
  test::Checked c = test::check("def f(x: real): real = x + 1;\nf(1).rd[1](z: real. f(z))");
  Term out = OneToTwo().mutate(c.term);
  EXPECT_EQ(print_program(out), "def f(x: real): real =\n  x + 2;\n\nf(2).rd[2](z: real. f(z))\n");
  const LetRec* before = c.term.as<LetRec>();
  const LetRec* after = out.as<LetRec>();
  ASSERT_TRUE(before && after);
  EXPECT_EQ(before->defs[0].id, after->defs[0].id);
}

// docs/style.md item 3: a pass that changes nothing returns the node it was given, on every kind of
// term the generator makes.
RC_GTEST_PROP(TermVisitor, AMutatorThatChangesNothingReturnsTheSameNode, (std::uint64_t seed)) {
  checker::Program p = checker::generate_program(seed, 0, checker::GenConfig{});
  Identity id;
  RC_ASSERT(id.mutate(p.term).same_as(p.term));
  RC_ASSERT(id.nodes > 0u);
}

// Traces of loops are let chains a million deep: the walk must not recurse along them (this
// runs on the test's ordinary thread stack).
TEST(TermVisitor, WalksAMillionDeepLetChain) {
  Term t = real_var("x");
  Term one = mk::literal("1");
  for (int i = 0; i < 1000000; ++i)
    t = mk::let(Name("x"), Type::real(), one, t);  // each x shadows the next
  Identity id;
  EXPECT_TRUE(id.mutate(t).same_as(t));
  EXPECT_EQ(id.nodes, 2000001u);
  Term two = OneToTwo().mutate(t);
  EXPECT_EQ(two.as<Let>()->bound.as<Literal>()->text, "2");
}

}  // namespace
}  // namespace adlang
