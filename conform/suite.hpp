// A conformance suite: programs with their expected results, written by `adlang check
// --emit-suite DIR` and run by `adlang conform --suite DIR`, so that a system is tested against
// the semantics without adlang evaluating anything (the way a specification's reference
// interpreter produces the tests every engine runs).
//
// DIR/NAME/ holds one case:
//   program.ad          the program, with its --env inputs in the first comment line;
//   program.torch.py    its export to PyTorch; program.python.py to plain Python (main, and
//                       gradient when the case has one), absent when the plain-Python
//                       derivative code is too large (recursion through rd);
//   case.json           {"name", "inputs": {NAME: value}, "wrt", "cotangent",
//                        "calls": [{"property": "value"|"gradient", "entry", "args",
//                                   "expected": {"value": [reals], "shown"} or
//                                               {"undefined": reason, "detail",
//                                                "total_predicates_value"?}}]}
// Values in args and inputs are the adapter protocol's JSON (docs/conform.md).
#pragma once

#include <string>
#include <vector>

#include "conform/conformance.hpp"

namespace adlang::conform {

// Writes `program` as the case DIR/name (the gradient with respect to input `wrt`, if any).
void emit_case(const std::string& dir, const std::string& name, const checker::Program& program,
               std::optional<std::size_t> wrt, const std::vector<std::string>& cotangent,
               const ConformOptions& options);

// Runs every case of DIR (in name order) on the system; std::runtime_error for an unreadable
// suite.
ConformReport run_suite(Adapter& adapter, const std::string& dir);

}  // namespace adlang::conform
