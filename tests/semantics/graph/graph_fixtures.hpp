// Fixtures shared by the tagged graph's test suites: a program lowered to its graph with its
// input values, and the thesis's benchmark programs (Appendix C) in our syntax.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "checker/rapidcheck_generators.hpp"
#include "semantics/graph/graph.hpp"
#include "semantics/graph/lower.hpp"
#include "semantics/value.hpp"
#include "support/test_support.hpp"

namespace adlang::test {

struct LoweredGraph {
  Checked checked;
  graph::Graph g;
  std::vector<Value<double>> values;
};

inline LoweredGraph lowered(const std::string& program, const Env& env = {},
                            graph::RdLowering rd = graph::RdLowering::Adjoint) {
  LoweredGraph l{check(program, env), {}, {}};
  std::vector<std::pair<Name, Type>> inputs;
  for (const auto& [name, text] : env) {
    ParsedValue<double> v = parse_value<double>(text);
    inputs.emplace_back(Name(name), v.type);
    l.values.push_back(v.value);
  }
  l.g = graph::lower_to_graph(l.checked.term, inputs, rd);
  graph::verify(l.g);
  return l;
}

// A generated program's inputs as the graph takes them: names and types, and their values.
inline void graph_inputs(const gen::GeneratedProgram& p, std::vector<std::pair<Name, Type>>& inputs,
                         std::vector<Value<double>>& values) {
  for (std::size_t i = 0; i < p.inputs.size(); ++i) {
    inputs.emplace_back(p.inputs[i].name, p.inputs[i].type);
    values.push_back(parse_value<double>(p.input_values[i]).value);
  }
}

inline const char* kFib =
    "def fib(n: real): real = if n < 1.5 then 1 else fib(n - 1) + fib(n - 2);\nfib(n)";
inline const char* kAck =
    "def ack(p: real * real): real = let (m: real, n: real) = p in\n"
    "  if m < 0.5 then n + 1 else if n < 0.5 then ack(m - 1, 1) else ack(m - 1, ack(m, n - 1));\n"
    "ack(m, n)";
inline const char* kTak =
    "def tak(p: real^3): real = let (x: real, y: real, z: real) = p in\n"
    "  if y < x - 0.5 then tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y)) else z;\n"
    "tak(x, y, z)";
inline const char* kMutual =
    "def even(n: real): real = if n < 0.5 then 1 else odd(n - 1);\n"
    "def odd(n: real): real = if n < 0.5 then 0 else even(n - 1);\n"
    "(even(n), odd(n))";

}  // namespace adlang::test
