// Every consumer of the operator table (lang/operators.hpp) handles every operator: for each table
// operator op : T -> U, the derivative W.rd_V(x:T. op(x)) at a point V inside op's domain is
// computed by the reference evaluator with Fig. 6's R and with the linear R (the reverse
// templates, lang/reverse_template.hpp), by the compiled evaluator's run-time tape, and by the
// denotational evaluator's independent derivatives, and they agree. An operator added to the
// table but missing from a consumer fails here (an internal error, a fallback of the tape, or a
// wrong value); a missing case in a switch over OpKind already fails to compile.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "checker/program.hpp"
#include "lang/free_vars.hpp"
#include "lang/op.hpp"
#include "lang/printer.hpp"
#include "semantics/compiled_eval.hpp"
#include "semantics/denotational_eval.hpp"
#include "semantics/ordinary_eval.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

// Scalars inside every operator's open domain (positive, off the integers, nonzero) and
// cotangent scalars, cycled through.
const std::vector<std::string> kPoint = {"0.75", "1.25", "2.5", "0.375", "1.75", "3.25"};
const std::vector<std::string> kCotangent = {"0.5", "-1.5", "2", "0.25", "-0.75", "1"};

std::vector<std::string> scalars(const std::vector<std::string>& from, std::size_t n) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(from[i % from.size()]);
  return out;
}

TEST(OperatorConsumers, EveryConsumerDifferentiatesEveryOperator) {
  for (const Op& op : Op::all(3)) {
    SCOPED_TRACE(op.name());
    Type t = op.arg_type(), u = op.result_type();
    Name x("x");
    Term v = checker::value_term(t, scalars(kPoint, t.size()));
    Term w = checker::value_term(u, scalars(kCotangent, u.size()));
    Term rd = mk::rd(w, v, x, t, mk::op(op, mk::var(x, t)));

    auto reference = [&](AdMode ad) {
      NameSupply names;
      reserve_names(rd, names);
      EvalOptions o;
      use_ad(o, ad);
      EvalContext cx(o, names);
      ValueEnv<double> rho;
      return ordinary_eval(rd, rho, nullptr, cx);
    };
    Value<double> paper = reference(AdMode::Paper);
    Value<double> linear = reference(AdMode::Linear);

    NameSupply names;
    reserve_names(rd, names);
    EvalOptions o;
    o.evaluator = Evaluator::Compiled;
    use_ad(o, AdMode::Tape);
    EvalContext cx(o, names);
    ValueEnv<double> rho;
    Value<double> tape = compiled_eval(rd, rho, cx);
    // The tape computed it itself: no step of R was taken.
    EXPECT_EQ(cx.derivative.clause_steps, 0u);

    Value<double> den = denote(rd, DenEnv<double>{});

    ASSERT_EQ(tape.size(), t.size());
    for (std::size_t i = 0; i < t.size(); ++i) {
      EXPECT_EQ(tape[i], linear[i]) << "the tape against the linear R, component " << i;
      EXPECT_NEAR(linear[i], paper[i], 1e-12 * (1 + std::fabs(paper[i])))
          << "the linear R against Fig. 6's, component " << i;
      EXPECT_NEAR(den[i], paper[i], 1e-12 * (1 + std::fabs(paper[i])))
          << "the denotation against Fig. 6's R, component " << i;
    }
  }
}

// docs/language.md's operator table has a row for every operator of the table, with the reverse
// template of its definition (lang/operators.hpp) written as the definition writes it.
TEST(OperatorConsumers, TheLanguageReferenceListsEveryOperator) {
  std::string doc = test::read_file(test::source_dir() + "/docs/language.md");
  for (const OpDefinition& d : kOpDefinitions) {
    std::string name = std::string(d.name) + (d.sized ? "_n" : "");
    SCOPED_TRACE(name);
    std::size_t row = doc.find("| `" + name + "` |");
    ASSERT_NE(row, std::string::npos) << "no row for " << name;
    std::string line = doc.substr(row, doc.find('\n', row) - row);
    EXPECT_NE(line.find("`" + std::string(d.reverse) + "`"), std::string::npos)
        << "the row does not give the reverse template " << d.reverse << ": " << line;
  }
}

}  // namespace
}  // namespace adlang
