// The round-trip property of the Python front end: a random program of the checker's
// generator (without rd, which plain Python cannot write), printed as Python
// (python_printer.hpp) and lowered back (lang/python/lower), has the same value as the
// original, or both are undefined; and the kind inferred for the printed value, when it is
// decided, describes that value (one int, float or bool per real of its type).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "checker/rapidcheck_generators.hpp"
#include "lang/free_vars.hpp"
#include "lang/python/lower/python_lowering.hpp"
#include "lang/python/lower/python_print.hpp"
#include "lang/type_checker.hpp"
#include "python_printer.hpp"
#include "support/test_support.hpp"

namespace adlang {
namespace {

std::string outcome(const std::string& printed) {
  return printed.rfind("undefined", 0) == 0 ? "undefined" : printed;
}

RC_GTEST_PROP(PythonRoundTrip, LoweredPythonHasTheOriginalsValue, ()) {
  gen::GenConfig cfg;
  cfg.differentiation = false;
  gen::GeneratedProgram g = *gen::program(cfg);
  test::PythonProgram py = test::print_python(g.term, g.inputs);
  RC_LOG() << py.text;

  py::LoweredPython lowered = py::lower_python(SourceFile("round_trip.py", py.text));
  std::vector<TypedName> inputs;
  test::Env original_env, lowered_env;
  for (std::size_t i = 0; i < g.inputs.size(); ++i) {
    inputs.push_back(TypedName{Name(py.input_names[i]), g.inputs[i].type});
    original_env.emplace_back(g.inputs[i].name.str(), g.input_values[i]);
    lowered_env.emplace_back(py.input_names[i], g.input_values[i]);
  }
  NameSupply names;
  for (Name n : lowered.program.identifiers)
    names.reserve(n);
  Term back = check_program(lowered.program, inputs, names);
  RC_ASSERT(back.type() == g.term.type());
  if (!lowered.printed.undecided) {
    RC_LOG() << "printed kind: " << py::to_string(lowered.printed.kind);
    std::vector<py::PrintedScalar> reals(g.term.type().size(), py::PrintedScalar{0, "0"});
    RC_ASSERT(py::print_python_value(lowered.printed.kind, reals).has_value());
  }

  NameSupply original_names;
  reserve_names(g.term, original_names);
  std::string want = outcome(test::run_term(g.term, original_names, original_env));
  std::string got = outcome(test::run_term(back, names, lowered_env));
  RC_ASSERT(got == want);
}

}  // namespace
}  // namespace adlang
