// The random well-typed programs of the property tests and of `adlang check` (docs/design.md
// Sec. 7): one generator, with two sources of random choices. `adlang check` draws them from a
// seeded generator, so a run is a pure function of (seed, index, config), deterministic and
// shardable; the test suite draws them from RapidCheck (checker/rapidcheck_generators.hpp),
// whose picks shrink towards the first, simplest alternative, so counterexamples shrink and
// stay well typed.
//
// Programs are built directly in the core IR through the validating factories, so every term
// is well typed by construction. They use every term form: rd nested inside rd (up to
// `max_rd_depth`), letrec with terminating recursion (a counter that decreases by 1 from
// k + 0.25), recursion through a derivative, mutually recursive top-level groups, function
// names that shadow outer ones (a closure must keep its definition's environment),
// conditionals whose guards are sometimes exactly on the boundary (an input compared with its
// own value, or a term with itself: uniform random reals never tie), tuples and unit, and
// every table operator inside and outside its domain.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "checker/program.hpp"
#include "lang/term.hpp"
#include "lang/vector_space.hpp"

namespace adlang::checker {

struct GenConfig {
  unsigned max_size = 10;     // size budget of the main term (roughly its node count)
  unsigned max_rd_depth = 3;  // rd nested inside rd (0: no rd)
  unsigned rd_weight = 3;     // how often a term is an rd (the other forms weigh 1-6)
  bool rd_main = false;       // the main term is an rd more often than not
  // How often the step of a counted recursion (after its recursive call) is forward mode,
  // M.fd_L(x:T. N), two nested rds (T often unit) whose N may read the call's result: each
  // activation of the recursion then hosts rds (the graph properties' generators; 0: never).
  double rd_in_step = 0;
  bool polynomial_only = false;  // only + - * / neg dot scale (exact rationals)
  bool recursion = true;         // letrec and calls
  bool conditionals = true;
  unsigned min_inputs = 0;
  unsigned max_inputs = 3;

  bool operator==(const GenConfig&) const = default;
};

// Where the generator's random choices come from.
class Choices {
 public:
  virtual ~Choices() = default;
  // Uniform in [0, n); 0 is the simplest alternative wherever there is one.
  virtual unsigned below(unsigned n) = 0;
  // True with probability p.
  virtual bool chance(double p) = 0;
};

// A deterministic source (SplitMix64 seeding a 64-bit Mersenne twister).
class Rng final : public Choices {
 public:
  Rng(std::uint64_t seed, std::uint64_t index);
  unsigned below(unsigned n) override { return n <= 1 ? 0 : static_cast<unsigned>(engine_() % n); }
  bool chance(double p) override {
    return std::uniform_real_distribution<double>(0, 1)(engine_) < p;
  }

 private:
  std::mt19937_64 engine_;
};

// A random program (of type `result` when given).
Program generate_program(Choices& choices, const GenConfig& config,
                         std::optional<Type> result = std::nullopt);
// Program number `index` of the `adlang check` run with `seed`.
Program generate_program(std::uint64_t seed, std::uint64_t index, const GenConfig& config);
// A random trace term (no if, letrec, call or rd) of type t over the variables `vars`.
Term generate_trace_term(Choices& choices, Type t, const std::vector<TypedName>& vars,
                         const GenConfig& config);
// A random value of type t as decimal texts (for cotangents, tangents and points).
std::vector<std::string> random_value(Choices& choices, Type t);
// A random small type (real, unit, pairs, real^3).
Type random_type(Choices& choices, unsigned depth = 2);

}  // namespace adlang::checker
