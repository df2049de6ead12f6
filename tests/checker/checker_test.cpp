// The checker: generators (determinism, well-typedness, coverage of the language), the
// shrinker, the properties on the real implementation (strict predicates: every theorem holds;
// total predicates: the paper's counterexamples are found), sharding, and the `adlang check`
// and `adlang den` commands.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <fstream>
#include <sstream>

#include "checker/program_generator.hpp"
#include "checker/runner.hpp"
#include "checker/shrink.hpp"
#include "checker/term_edit.hpp"
#include "driver/commands.hpp"
#include "lang/alpha.hpp"
#include "lang/parser.hpp"
#include "lang/printer.hpp"
#include "lang/term_visitor.hpp"
#include "lang/type_checker.hpp"
#include "lang/vector_space.hpp"
#include "support/exit_codes.hpp"
#include "support/stack.hpp"

namespace adlang {
namespace {

using namespace checker;

std::vector<TypedName> typed(const Program& p) {
  std::vector<TypedName> g;
  for (const Input& in : p.inputs)
    g.push_back(TypedName{in.name, in.type});
  return g;
}

// print, parse and type-check a generated program again: it must be well typed with the same
// type and alpha-equivalent to what was generated.
void expect_round_trip(const Program& p) {
  run_on_large_stack([&] {
    std::string text = print_program(p.term);
    SyntaxProgram syntax = parse_program(text);
    NameSupply names;
    for (const Name& n : syntax.identifiers)
      names.reserve(n);
    Term back = check_program(syntax, typed(p), names);
    EXPECT_EQ(back.type(), p.term.type()) << text;
    EXPECT_TRUE(alpha_equivalent(back, p.term)) << text;
  });
}

TEST(ProgramGenerator, DeterministicPerSeedAndIndex) {
  GenConfig g;
  for (std::uint64_t i = 0; i < 50; ++i) {
    EXPECT_EQ(program_text(generate_program(7, i, g)), program_text(generate_program(7, i, g)));
  }
  EXPECT_NE(program_text(generate_program(7, 1, g)), program_text(generate_program(8, 1, g)));
}

TEST(ProgramGenerator, ProgramsAreWellTypedAndPrintParseable) {
  GenConfig g;
  for (std::uint64_t i = 0; i < 3000; ++i) {
    Program p = generate_program(3, i, g);
    ASSERT_TRUE(well_scoped(p.term, typed(p))) << program_text(p);
    if (i < 300) expect_round_trip(p);
  }
}

RC_GTEST_PROP(ProgramGenerator, EverySeedGivesAWellScopedProgram, (std::uint64_t seed)) {
  Program p = generate_program(seed, seed % 97, GenConfig{});
  RC_ASSERT(well_scoped(p.term, typed(p)));
}

// Depth of rd nested inside rd bodies.
unsigned rd_depth(const Term& t) {
  unsigned d = 0;
  for (const Term& k : subterms_of(t))
    d = std::max(d, rd_depth(k));
  if (const Rd* r = t.as<Rd>()) d = std::max(d, 1 + rd_depth(r->body));
  return d;
}

TEST(ProgramGenerator, CoversTheLanguage) {
  GenConfig g;
  bool letrec = false, mutual = false, call = false, tie = false, unit = false, rd3 = false;
  bool through_rd = false;
  std::set<std::string> ops;
  for (std::uint64_t i = 0; i < 3000; ++i) {
    Program p = generate_program(11, i, g);
    rd3 = rd3 || rd_depth(p.term) >= 3;
    for (const Term& s : subterms(p.term)) {
      if (const LetRec* l = s.as<LetRec>()) {
        letrec = true;
        mutual = mutual || l->defs.size() > 1;
        for (const FunDef& d : l->defs)
          for (const Term& b : subterms(d.body))
            if (const Rd* r = b.as<Rd>())
              for (const Term& c : subterms(r->body))
                through_rd = through_rd || c.kind() == TermKind::Call;
      }
      call = call || s.kind() == TermKind::Call;
      unit = unit || s.type().is_unit();
      if (const OpApp* o = s.as<OpApp>()) ops.insert(o->op.name().substr(0, 3));
      if (const If* f = s.as<If>()) {
        if (const PredApp* pa = f->guard.as<PredApp>()) {
          const Pair* args = pa->arg.as<Pair>();
          const Var* v = args ? args->first.as<Var>() : nullptr;
          const Literal* lit = args ? args->second.as<Literal>() : nullptr;
          if (v && lit)
            for (const Input& in : p.inputs)
              tie = tie ||
                    (in.name == v->name && in.scalars.size() == 1 && in.scalars[0] == lit->text);
        }
      }
    }
  }
  EXPECT_TRUE(letrec);
  EXPECT_TRUE(mutual);
  EXPECT_TRUE(call);
  EXPECT_TRUE(through_rd) << "recursion through a derivative";
  EXPECT_TRUE(tie) << "a guard exactly on its boundary";
  EXPECT_TRUE(unit);
  EXPECT_TRUE(rd3) << "rd nested three deep";
  for (const char* op : {"neg", "add", "sub", "mul", "div", "sin", "cos", "exp", "log", "sqr",
                         "tan", "sig", "dot", "sca"})
    EXPECT_TRUE(ops.count(op)) << op;
}

TEST(ProgramGenerator, PolynomialFragmentOnly) {
  GenConfig g;
  g.polynomial_only = true;
  for (std::uint64_t i = 0; i < 300; ++i)
    EXPECT_TRUE(is_polynomial_term(generate_program(5, i, g).term));
}

TEST(Shrinker, KeepsProgramsWellTypedAndFailing) {
  // "Fails" when the program contains a sin: the shrinker must find a tiny program with one.
  GenConfig g;
  int shrunk = 0;
  for (std::uint64_t i = 0; i < 2000 && shrunk < 10; ++i) {
    Program p = generate_program(21, i, g);
    auto has_sin = [](const Program& q) {
      for (const Term& s : subterms(q.term))
        if (const OpApp* o = s.as<OpApp>(); o && o->op.kind() == OpKind::Sin) return true;
      return false;
    };
    if (!has_sin(p)) continue;
    Program s = shrink(p, [&](const Program& q) {
      EXPECT_TRUE(well_scoped(q.term, typed(q)));
      return has_sin(q);
    });
    EXPECT_TRUE(has_sin(s));
    // sin(0), or a function definition whose body is sin(0) around a constant main term; the
    // shrinker keeps the program's type, so a main term of a product type T keeps a context of
    // that type around the sin (0.rd[(0, 0)](z: real * real. sin(0)) at real * real): up to
    // two more nodes per node of T's smallest value beyond the first.
    std::size_t extra = 2 * (node_count(make_zero(s.term.type())) - 1);
    EXPECT_LE(node_count(s.term), 4u + extra) << program_text(s);
    expect_round_trip(s);
    ++shrunk;
  }
  EXPECT_EQ(shrunk, 10);
}

TEST(Properties, EveryTheoremHoldsWithStrictPredicates) {
  RunOptions o;
  o.count = 600;
  o.seed = 2;
  RunReport r = run_checks(o, CheckConfig{});
  for (const Counterexample& c : r.counterexamples)
    ADD_FAILURE() << c.property << ":\n" << program_text(c.shrunk) << "\n" << c.detail;
  for (const PropertySummary& s : r.properties) {
    EXPECT_EQ(s.tried, 600u);
    EXPECT_GT(s.passed, s.tried / 3) << s.name << ": too many programs say nothing";
  }
}

// `adlang check --ad linear`: the theorems hold with the linear R in place of Fig. 6's.
TEST(Properties, EveryTheoremHoldsWithTheLinearR) {
  RunOptions o;
  o.count = 400;
  o.seed = 3;
  CheckConfig c;
  c.linear_r = true;
  RunReport r = run_checks(o, c);
  for (const Counterexample& cx : r.counterexamples)
    ADD_FAILURE() << cx.property << ":\n" << program_text(cx.shrunk) << "\n" << cx.detail;
  for (const PropertySummary& s : r.properties)
    EXPECT_GT(s.passed, s.tried / 3) << s.name << ": too many programs say nothing";
}

TEST(Properties, TotalPredicatesShowThePapersCounterexample) {
  // The paper's g(x) = if x = 0 then 0 else x at 0: total comparisons give derivative 0, the
  // mathematics 1. The checker must find such a program and shrink it to a conditional.
  RunOptions o;
  o.count = 1000;
  o.seed = 1;
  o.properties = {"finite-differences", "correctness-near"};
  CheckConfig c;
  c.predicates = c.den_predicates = PredicateMode::Total;
  RunReport r = run_checks(o, c);
  ASSERT_FALSE(r.counterexamples.empty());
  for (const Counterexample& cx : r.counterexamples) {
    EXPECT_LE(node_count(cx.shrunk.term), 15u) << program_text(cx.shrunk);
    bool has_if = false;
    for (const Term& s : subterms(cx.shrunk.term))
      has_if = has_if || s.kind() == TermKind::If;
    EXPECT_TRUE(has_if) << program_text(cx.shrunk);
  }
  // The same programs pass with the paper's strict predicates.
  RunReport strict = run_checks(o, CheckConfig{});
  EXPECT_TRUE(strict.passed());
}

TEST(Properties, ThePapersExampleItself) {
  // g at 0 with total predicates, as a program: finite differences see 1, R says 0.
  Program p;
  Name x("x");
  p.inputs = {Input{x, Type::real(), {"0"}}};
  Term xv = mk::var(x, Type::real());
  p.term = mk::if_(mk::pred(Pred::make(PredKind::Eq), mk::pair(xv, mk::literal("0"))),
                   mk::literal("0"), xv);
  const PropertyInfo* fd = nullptr;
  for (const PropertyInfo& q : all_properties())
    if (std::string(q.name) == "finite-differences") fd = &q;
  CheckConfig total;
  total.predicates = total.den_predicates = PredicateMode::Total;
  Outcome o = run_property(*fd, p, total, 1);
  EXPECT_EQ(o.verdict, Verdict::Fail);
  EXPECT_NE(o.detail.find("W.rd_V(x. M) => 0\n"), std::string::npos) << o.detail;
  EXPECT_NE(o.detail.find("central differences give"), std::string::npos) << o.detail;
  EXPECT_EQ(run_property(*fd, p, CheckConfig{}, 1).verdict, Verdict::BothUndefined);
}

TEST(Runner, ShardsPartitionARun) {
  RunOptions o;
  o.count = 60;
  o.seed = 9;
  o.properties = {"correctness"};
  RunReport whole = run_checks(o, CheckConfig{});
  std::uint64_t tried = 0, passed = 0;
  for (unsigned i = 0; i < 3; ++i) {
    o.shard_index = i;
    o.shard_count = 3;
    RunReport part = run_checks(o, CheckConfig{});
    tried += part.properties[0].tried;
    passed += part.properties[0].passed;
  }
  EXPECT_EQ(tried, whole.properties[0].tried);
  EXPECT_EQ(passed, whole.properties[0].passed);
}

// --jobs: the threads take programs in whatever order they finish, and the report (counts,
// first failure, its shrunk program) must still be the one thread's, also when the run stops
// at its first failure (the mutation tests) and in a shard.
TEST(Runner, TheReportIsTheSameForEveryNumberOfJobs) {
  CheckConfig c;
  c.predicates = c.den_predicates = PredicateMode::Total;  // so that some programs fail
  auto shown = [](const RunReport& r) {
    std::string text;
    for (const PropertySummary& s : r.properties)
      text += s.name + " " + std::to_string(s.tried) + " " + std::to_string(s.passed) + " " +
              std::to_string(s.failed) + " " + std::to_string(s.both_undefined) + " " +
              std::to_string(s.discarded) + " " +
              (s.first_failure ? std::to_string(*s.first_failure) : "-") + "\n";
    for (const Counterexample& cx : r.counterexamples)
      text += cx.property + " " + std::to_string(cx.index) + "\n" + program_text(cx.shrunk) + "\n" +
              cx.detail + "\n";
    return text;
  };
  for (bool stop : {false, true}) {
    for (unsigned shard : {0u, 1u}) {
      RunOptions o;
      o.count = 300;
      o.seed = 3;
      o.properties = {"correctness-near", "finite-differences", "type-safety"};
      o.stop_after_first_failure = stop;
      o.shard_index = shard;
      o.shard_count = 2;
      const std::string one = shown(run_checks(o, c));
      EXPECT_NE(one.find("\ncorrectness-near "), std::string::npos)
          << "the run must have a counterexample to compare:\n"
          << one;
      for (unsigned jobs : {2u, 5u}) {
        o.jobs = jobs;
        EXPECT_EQ(shown(run_checks(o, c)), one) << jobs << " jobs, stop " << stop;
      }
    }
  }
}

TEST(Runner, UnknownPropertyIsRefused) {
  RunOptions o;
  o.properties = {"no-such-property"};
  EXPECT_THROW(run_checks(o, CheckConfig{}), std::invalid_argument);
}

// ---- the commands -----------------------------------------------------------------------

TEST(CheckCommand, SummaryTableAndExitCode) {
  CheckOptions o;
  o.count = 50;
  o.progress = false;
  std::ostringstream out, err;
  EXPECT_EQ(check_command(o, out, err), kExitOk) << out.str() << err.str();
  EXPECT_NE(out.str().find("type-safety"), std::string::npos);
  EXPECT_NE(out.str().find("both-undef"), std::string::npos);
  EXPECT_NE(out.str().find("all properties passed"), std::string::npos);
}

TEST(CheckCommand, TotalPredicatesPrintAShrunkCounterexample) {
  CheckOptions o;
  o.count = 200;
  o.progress = false;
  o.predicates = PredicateMode::Total;
  o.properties = {"correctness-near"};
  std::ostringstream out, err;
  EXPECT_EQ(check_command(o, out, err), kExitCheckFailed);
  std::string s = out.str();
  EXPECT_NE(s.find("FAILED correctness-near"), std::string::npos) << s;
  EXPECT_NE(s.find("if "), std::string::npos) << s;
  EXPECT_NE(s.find("reproduce: adlang check --property correctness-near --seed 1"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("[[C]] gamma = "), std::string::npos) << s;
}

TEST(CheckCommand, JsonAndUnknownProperty) {
  CheckOptions o;
  o.count = 20;
  o.progress = false;
  o.json = true;
  o.properties = {"interpolation"};
  std::ostringstream out, err;
  EXPECT_EQ(check_command(o, out, err), kExitOk);
  EXPECT_EQ(out.str().rfind("{\"seed\": 1", 0), 0u) << out.str();
  EXPECT_NE(out.str().find("\"name\": \"interpolation\", \"tried\": 20"), std::string::npos);
  o.properties = {"nope"};
  std::ostringstream out2, err2;
  EXPECT_EQ(check_command(o, out2, err2), kExitUsage);
  EXPECT_NE(err2.str().find("unknown property 'nope'"), std::string::npos);
}

TEST(DenCommand, PrintsTheMeaningAndReportsBottom) {
  std::string path = ::testing::TempDir() + "den_command_test.ad";
  {
    std::ofstream f(path);
    f << "grad[x](y: real. if y = 0 then 0 else y)\n";
  }
  DenOptions o;
  o.file = path;
  o.env = {"x=2"};
  std::ostringstream out, err;
  EXPECT_EQ(den_command(o, out, err), kExitOk);
  EXPECT_EQ(out.str(), "1\n");
  o.env = {"x=0"};
  std::ostringstream out2, err2;
  EXPECT_EQ(den_command(o, out2, err2), kExitUndefined);
  EXPECT_NE(err2.str().find(":1:23: error: undefined: the comparison '='"), std::string::npos)
      << err2.str();
  o.json = true;
  o.env = {"x=3"};
  std::ostringstream out3, err3;
  EXPECT_EQ(den_command(o, out3, err3), kExitOk);
  EXPECT_NE(out3.str().find("\"value\": 1"), std::string::npos) << out3.str();
}

}  // namespace
}  // namespace adlang
