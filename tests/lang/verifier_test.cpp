// The IR verifier (lang/verifier.hpp) and function resolution (lang/resolve.hpp): well-formed
// programs pass, each rule it checks catches a term that breaks it, and every call is resolved
// to the innermost definition of its name.
#include "lang/verifier.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <filesystem>

#include "checker/program_generator.hpp"
#include "lang/diagnostics.hpp"
#include "lang/parser.hpp"
#include "lang/printer.hpp"
#include "lang/resolve.hpp"
#include "lang/term_visitor.hpp"
#include "lang/type_checker.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

const std::vector<TypedName> kX{TypedName{Name("x"), Type::real()}};

using test::real_var;

std::string violation(const Term& t, const std::vector<TypedName>& inputs = kX,
                      FunIds ids = FunIds::MayBeUnresolved) {
  return ir_violation(t, inputs, ids).value_or("(none)");
}

FunDef def(const char* f, Term body, FunId id = FunId::Unresolved) {
  return FunDef{Name(f), Name("y"), Type::real(), Type::real(), body, {}, id};
}

bool has_function(const Term& root) {
  std::vector<Term> todo;
  todo.push_back(root);
  while (!todo.empty()) {
    Term t = std::move(todo.back());
    todo.pop_back();
    if (t.kind() == TermKind::LetRec) return true;
    for_each_subterm(t, [&](const Term& c) { todo.push_back(c); });
  }
  return false;
}

TEST(Verifier, AcceptsEveryExampleAfterEachFrontEndStep) {
  int checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(test::source_dir() + "/examples")) {
    if (e.path().extension() != ".ad") continue;
    SyntaxProgram p = parse_program(test::read_file(e.path().string()));
    std::vector<TypedName> inputs;
    for (const Name& n : program_inputs(p))
      inputs.push_back(TypedName{n, Type::real()});
    NameSupply names;
    for (const Name& n : p.identifiers)
      names.reserve(n);
    Term core;
    try {
      core = desugar_program(p, inputs, names);
    } catch (const CompileError&) {
      continue;  // an input that is not a real (dot_gradient.ad)
    }
    EXPECT_EQ(violation(core, inputs), "(none)") << e.path();
    if (has_function(core)) {
      EXPECT_NE(violation(core, inputs, FunIds::Resolved), "(none)")
          << "unresolved functions pass as resolved: " << e.path();
    }
    Term resolved = resolve_functions(core);
    EXPECT_EQ(violation(resolved, inputs, FunIds::Resolved), "(none)") << e.path();
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

RC_GTEST_PROP(Verifier, AcceptsEveryGeneratedProgram, (std::uint64_t seed)) {
  checker::Program p = checker::generate_program(seed, 1, checker::GenConfig{});
  std::vector<TypedName> inputs;
  for (const checker::Input& in : p.inputs)
    inputs.push_back(TypedName{in.name, in.type});
  RC_ASSERT(ir_violation(p.term, inputs, FunIds::Resolved) == std::nullopt);
}

TEST(Verifier, UnboundVariable) {
  EXPECT_EQ(violation(mk::add(real_var("x"), real_var("z"))),
            "variable: variable 'z' is not bound");
}

TEST(Verifier, VariableAtTheWrongType) {
  EXPECT_EQ(violation(mk::var(Name("x"), Type::unit())),
            "variable: the variable's type has type unit, expected real");
}

TEST(Verifier, FunctionBodiesSeeOnlyTheirParameter) {
  // letrec f(y:real):real = x in f(1): x is an input, invisible in f's body (Fig. 1).
  Term t = mk::letrec({def("f", real_var("x"))},
                      mk::call(Name("f"), Type::real(), Type::real(), mk::literal("1")));
  EXPECT_NE(violation(t).find("variable 'x' is used in a function body that does not bind it"),
            std::string::npos)
      << violation(t);
  // Its parameter, and the variables its body binds, are visible.
  Term ok = mk::letrec({def("f", mk::let(Name("z"), Type::real(), real_var("y"), real_var("z")))},
                       mk::call(Name("f"), Type::real(), Type::real(), real_var("x")));
  EXPECT_EQ(violation(ok), "(none)");
}

// The verified passes (ir_verification_on): the test suite sets ADLANG_VERIFY, so every pass
// checks its output, and an open term's free variables take the type of their first use.
TEST(VerifiedPasses, AreOnInTheTestSuite) {
  EXPECT_TRUE(ir_verification_on());
}

TEST(VerifiedPasses, AnOpenTermTakesItsFreeVariablesAsInputs) {
  EXPECT_NO_THROW(verify_open_pass("a test", mk::add(real_var("x"), real_var("z"))));
  // The same free variable at two types is no well-formed open term.
  Term t = mk::pair(real_var("z"), mk::var(Name("z"), Type::unit()));
  try {
    verify_open_pass("a test", t);
    FAIL() << "a free variable at two types was accepted";
  } catch (const InternalError& e) {
    EXPECT_EQ(std::string(e.what()),
              "internal error: the IR verifier rejects the output of a test: a variable: the "
              "variable's type has type unit, expected real");
  }
}

TEST(VerifiedPasses, AClosedPassOutputMustBindItsVariables) {
  EXPECT_THROW(
      verify_pass("a test", mk::add(real_var("x"), real_var("z")), kX, FunIds::MayBeUnresolved),
      InternalError);
}

TEST(Verifier, CallOutOfScope) {
  EXPECT_EQ(violation(mk::call(Name("g"), Type::real(), Type::real(), real_var("x"))),
            "function call: function 'g' is not in scope");
}

TEST(Verifier, CallAtTheWrongType) {
  Term t = mk::letrec({def("f", real_var("y"))},
                      mk::call(Name("f"), Type::unit(), Type::real(), mk::unit()));
  EXPECT_EQ(violation(t),
            "function call: the parameter type the call of 'f' records has type unit, expected "
            "real");
}

TEST(Verifier, UnresolvedCallsAndSharedIds) {
  Term t = mk::letrec({def("f", real_var("y"))},
                      mk::call(Name("f"), Type::real(), Type::real(), real_var("x")));
  EXPECT_EQ(violation(t, kX, FunIds::Resolved), "letrec: function 'f' has no id (not resolved)");
  Term r = resolve_functions(t);
  EXPECT_EQ(violation(r, kX, FunIds::Resolved), "(none)");
  // Two definitions with one id.
  FunId id = r.as<LetRec>()->defs[0].id;
  Term inner =
      mk::letrec({def("g", real_var("y"), id)},
                 mk::call(FunRef(Name("g"), id), Type::real(), Type::real(), real_var("x")));
  Term twice = mk::letrec({def("f", real_var("y"), id)}, inner);
  EXPECT_EQ(violation(twice, kX, FunIds::Resolved),
            "letrec: function 'g' shares its id with another definition");
  // A call carrying the id of a definition it does not call.
  Term stale = mk::letrec(
      {def("f", real_var("y"), id)},
      mk::call(FunRef(Name("f"), fresh_fun_id()), Type::real(), Type::real(), real_var("x")));
  EXPECT_EQ(violation(stale, kX, FunIds::Resolved),
            "function call: the call of 'f' does not carry the id of the definition in scope");
}

TEST(Resolve, CallsTheInnermostDefinitionOfItsName) {
  test::Checked c = test::check(
      "def f(x: real): real = x + 1;\n"
      "f(let f(y: real): real = y * 2 in f(3))");
  const LetRec* outer = c.term.as<LetRec>();
  ASSERT_NE(outer, nullptr);
  const Call* main_call = outer->body.as<Call>();
  ASSERT_NE(main_call, nullptr);
  EXPECT_EQ(main_call->fun.id, outer->defs[0].id);
  const LetRec* inner = main_call->arg.as<LetRec>();
  ASSERT_NE(inner, nullptr);
  EXPECT_NE(inner->defs[0].id, outer->defs[0].id);
  EXPECT_EQ(inner->body.as<Call>()->fun.id, inner->defs[0].id);
  EXPECT_EQ(
      test::run<double>("def f(x: real): real = x + 1;\nf(let f(y: real): real = y * 2 in f(3))"),
      "7");
}

TEST(Resolve, ResolutionIsStableUnderItsOwnRepetition) {
  test::Checked c = test::check("def f(x: real): real = if x < 0.5 then x else f(x - 1);\nf(3.25)");
  Term again = resolve_functions(c.term);
  EXPECT_EQ(violation(again, {}, FunIds::Resolved), "(none)");
  EXPECT_NE(again.as<LetRec>()->defs[0].id, c.term.as<LetRec>()->defs[0].id);  // fresh ids
  EXPECT_EQ(print_term(again), print_term(c.term));
}

}  // namespace
}  // namespace adlang
