// `adlang export`: a program as a self-contained Python program with the same meaning, for
// plain Python (floats and the math module, no AD library) or for PyTorch (float64 tensors).
//
// Each entry (a term over named, typed parameters) becomes a Python function of those
// parameters; the inputs of a program are parameters, never constants. The translation:
//
//   functions       every def / letrec function becomes a module-level Python function (their
//                   bodies are closed, Fig. 1's letrec rule), recursion stays recursion;
//   values          a real is a float (a 0-dim float64 tensor for torch), * is (), a pair
//                   <M, N> is a 2-tuple, real^n is the left-nested tuples of its type;
//   operators       the table's Python forms (lang/operators.hpp, OpDefinition::python);
//   predicates      strict (the paper's: a tie raises Undefined) or total (conventional), as
//                   --predicates says;
//   M.rd_L(x:T. N)  torch: x is a fresh node for L's value, N is computed from it, and
//                   torch.autograd.grad takes M as grad_outputs, with create_graph=True under
//                   nesting (inside another rd's body or inside a function, whose caller may
//                   differentiate it); plain Python: the rd is first replaced by the program's
//                   own derivative (conform/rd_elimination.hpp, built on the linear R), so the
//                   printed program has no rd left.
//
// Every binding gets its own Python name, so shadowing in adlang never overwrites a variable
// another branch still reads. The module also defines _from_json / _to_json (the adapter
// protocol's values, docs/conform.md) and, run as a script, reads the inputs of `main` as a
// JSON array from its first argument and prints the result as JSON.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "lang/name.hpp"
#include "lang/term.hpp"
#include "lang/vector_space.hpp"
#include "semantics/op_eval.hpp"

namespace adlang::conform {

enum class ExportTarget {
  Python,  // plain Python: floats, math, the derivative printed as code
  Torch,   // PyTorch: float64 tensors, rd by torch.autograd.grad
};

// "python", "torch".
const char* to_string(ExportTarget t);

// One Python function of the exported module: `def name(params): return term`.
struct ExportEntry {
  std::string name;
  std::vector<TypedName> params;
  Term term;  // resolved and type-checked, with FV(term) within params
};

struct ExportOptions {
  ExportTarget target = ExportTarget::Torch;
  PredicateMode predicates = PredicateMode::Strict;
  // Where the program came from, for the module's first comment line.
  std::string origin;
  // The plain-Python derivative's size bound, in term nodes (ExportTooLarge beyond it).
  std::uint64_t max_derivative_nodes = 200000;
};

// The plain-Python derivative of a program exceeds ExportOptions::max_derivative_nodes.
class ExportTooLarge : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The Python module with one function per entry. `names` must know every name of the terms
// (fresh names are drawn from it for the plain-Python derivative).
std::string export_python(const std::vector<ExportEntry>& entries, const ExportOptions& options,
                          NameSupply& names);

// The entry `gradient(w, inputs...)`: w.rd_{x}(x. M) for the input `wrt`, that is W^T J, the
// gradient of M with respect to that input at the given inputs along the cotangent w. The
// cotangent's name is fresh.
ExportEntry gradient_entry(const Term& program, const std::vector<TypedName>& inputs,
                           std::size_t wrt, NameSupply& names);

}  // namespace adlang::conform
