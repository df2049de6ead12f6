// The operator table (docs/design.md Sec. 5): signatures, domains, and reverse-derivative
// templates that stay inside the table (closure under op_r, so nesting never leaves it).
#include "lang/op.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "lang/printer.hpp"
#include "lang/reverse_template.hpp"

namespace adlang {
namespace {

// Every operator used in t.
void collect_ops(const Term& t, std::vector<Op>& out) {
  switch (t.kind()) {
    case TermKind::Op:
      out.push_back(t.as<OpApp>()->op);
      collect_ops(t.as<OpApp>()->arg, out);
      return;
    case TermKind::Pair:
      collect_ops(t.as<Pair>()->first, out);
      collect_ops(t.as<Pair>()->second, out);
      return;
    case TermKind::Fst:
      collect_ops(t.as<Fst>()->arg, out);
      return;
    case TermKind::Snd:
      collect_ops(t.as<Snd>()->arg, out);
      return;
    case TermKind::Add:
      collect_ops(t.as<Add>()->lhs, out);
      collect_ops(t.as<Add>()->rhs, out);
      return;
    case TermKind::Let:
      collect_ops(t.as<Let>()->bound, out);
      collect_ops(t.as<Let>()->body, out);
      return;
    default:
      return;
  }
}

TEST(OpTable, LookupByName) {
  EXPECT_EQ(Op::lookup("sin")->kind(), OpKind::Sin);
  EXPECT_EQ(Op::lookup("dot_3")->vector_size(), 3u);
  EXPECT_EQ(Op::lookup("scale_12")->name(), "scale_12");
  EXPECT_FALSE(Op::lookup("dot_0"));
  EXPECT_FALSE(Op::lookup("dot_03"));
  EXPECT_FALSE(Op::lookup("dot_"));
  EXPECT_FALSE(Op::lookup("cosh"));
}

TEST(OpTable, Signatures) {
  EXPECT_EQ(to_string(Op::make(OpKind::Dot, 3).arg_type()), "real^3 * real^3");
  EXPECT_EQ(to_string(Op::make(OpKind::Scale, 2).arg_type()), "real * (real * real)");
  EXPECT_EQ(to_string(Op::make(OpKind::Scale, 2).result_type()), "real * real");
  EXPECT_EQ(to_string(Op::make(OpKind::Dot, 1).arg_type()), "real * real");
}

TEST(OpTable, OpenDomains) {
  EXPECT_EQ(Op::make(OpKind::Log).domain(), OpDomain::PositiveArgument);
  EXPECT_EQ(Op::make(OpKind::Sqrt).domain(), OpDomain::PositiveArgument);
  EXPECT_EQ(Op::make(OpKind::Div).domain(), OpDomain::NonzeroDenominator);
  EXPECT_EQ(Op::make(OpKind::Exp).domain(), OpDomain::All);
  EXPECT_EQ(Op::make(OpKind::Floor).domain(), OpDomain::OffIntegers);
}

TEST(OpTable, Floor) {
  ASSERT_TRUE(Op::lookup("floor"));
  EXPECT_EQ(Op::lookup("floor")->kind(), OpKind::Floor);
  EXPECT_EQ(to_string(Op::make(OpKind::Floor).arg_type()), "real");
  EXPECT_EQ(to_string(Op::make(OpKind::Floor).result_type()), "real");
  EXPECT_FALSE(Op::make(OpKind::Floor).is_polynomial());
}

// The table is closed under reverse derivatives (docs/design.md Sec. 5): walk the table,
// instantiate every template, and fail if it uses an operator outside the table or has the wrong
// type (op_r : T * U -> T).
TEST(OpTable, ReverseTemplatesStayInsideTheTable) {
  for (const Op& op : Op::all(4)) {
    Term x = mk::var(Name("x"), op.arg_type());
    Term w = mk::var(Name("w"), op.result_type());
    Term r = reverse_template(op, x, w);
    EXPECT_EQ(r.type(), op.arg_type()) << op.name();
    EXPECT_TRUE(is_trace_term(r)) << op.name();
    std::vector<Op> used;
    collect_ops(r, used);
    for (const Op& u : used) {
      std::optional<Op> found = Op::lookup(u.name());
      ASSERT_TRUE(found.has_value()) << op.name() << " uses " << u.name();
      EXPECT_EQ(*found, u);
    }
  }
}

TEST(OpTable, ReverseTemplatesAsThePaperWritesThem) {
  auto show = [](OpKind k, unsigned n = 0) {
    Op op = Op::make(k, n);
    return print_term(reverse_template(op, mk::var(Name("x"), op.arg_type()),
                                       mk::var(Name("w"), op.result_type())));
  };
  EXPECT_EQ(show(OpKind::Sin), "w * cos(x)");
  EXPECT_EQ(show(OpKind::Cos), "-(w * sin(x))");
  EXPECT_EQ(show(OpKind::Mul), "(w * snd x, w * fst x)");
  EXPECT_EQ(show(OpKind::Div), "(w / snd x, -(w * fst x / (snd x * snd x)))");
  EXPECT_EQ(show(OpKind::Exp), "w * exp(x)");
  EXPECT_EQ(show(OpKind::Log), "w / x");
  EXPECT_EQ(show(OpKind::Floor), "0");
  EXPECT_EQ(show(OpKind::Dot, 3), "(scale_3(w, snd x), scale_3(w, fst x))");
  EXPECT_EQ(show(OpKind::Scale, 2), "(dot_2(snd x, w), scale_2(fst x, w))");
}

TEST(OpTable, TemplatesUseComponentsOfSyntacticPairs) {
  Op mul = Op::make(OpKind::Mul);
  Term x = mk::pair(mk::var(Name("a"), Type::real()), mk::var(Name("b"), Type::real()));
  EXPECT_EQ(print_term(reverse_template(mul, x, mk::var(Name("w"), Type::real()))),
            "(w * b, w * a)");
}

TEST(OpTable, NonValueArgumentsAreLetBoundOnce) {
  NameSupply names;
  Op sin = Op::make(OpKind::Sin);
  Term d = mk::op(Op::make(OpKind::Exp), mk::var(Name("a"), Type::real()));
  EXPECT_EQ(print_term(instantiate_reverse(sin, d, mk::var(Name("w"), Type::real()), names)),
            "let p_1: real = exp(a) in\nw * cos(p_1)");
}

TEST(OpTable, Predicates) {
  EXPECT_EQ(Pred::lookup("le")->symbol(), std::string("<="));
  EXPECT_EQ(Pred::all().size(), 5u);
  EXPECT_FALSE(Pred::lookup("ne"));
}

// Each definition of lang/operators.hpp is found by its name, and the sizes the evaluators and
// the tape read from its shapes are the sizes of its types.
TEST(OpTable, EveryDefinitionIsFoundByItsNameWithConsistentSizes) {
  for (const Op& op : Op::all(3)) {
    SCOPED_TRACE(op.name());
    ASSERT_TRUE(Op::lookup(op.name()));
    EXPECT_EQ(*Op::lookup(op.name()), op);
    EXPECT_EQ(op.arg_size(), op.arg_type().size());
    EXPECT_EQ(op.result_size(), op.result_type().size());
  }
  // The templates are parsed by the compiler: this is a compile-time fact.
  static_assert(reverse_rule(OpKind::Mul).node(reverse_rule(OpKind::Mul).root).kind ==
                ReverseNode::Kind::Pair);
  static_assert(reverse_reads_argument(OpKind::Mul) && !reverse_reads_argument(OpKind::Add));
}

TEST(OpTable, MessagesListThePolynomialFragmentFromTheDefinitions) {
  EXPECT_EQ(polynomial_operator_names(), "neg add sub mul div dot_n scale_n");
}

}  // namespace
}  // namespace adlang
