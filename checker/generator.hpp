// Random well-typed programs (DESIGN.md Sec. 7): every term form of the language, rd nested
// inside rd (up to `max_rd_depth`, 3 by default), letrec with terminating recursion patterns
// (a counter that decreases by 1 from k + 0.25), recursion through a derivative, mutually
// recursive top-level groups, function names that shadow outer ones, conditionals whose
// guards are sometimes exactly on the boundary (an input compared with its own value: ties
// are generated on purpose, uniform reals never hit them), tuples and unit, and every table
// operator both inside and outside its domain (log and sqrt of any real, division by terms
// that can be 0).
//
// Generation is a pure function of (seed, index, config): `adlang check` is deterministic per
// seed and shards by index. One program in four is drawn instead from the RapidCheck generator
// of checker/program_generator.hpp (seeded from (seed, index)), so the checker also exercises
// that generator's distribution.
#pragma once

#include <cstdint>
#include <random>

#include "checker/program.hpp"

namespace adlang::checker {

struct GenConfig {
  unsigned max_size = 10;        // size budget of the main term (roughly its node count)
  unsigned max_rd_depth = 3;     // rd nested inside rd
  bool polynomial_only = false;  // only + - * / neg dot scale (exact rationals)
  bool recursion = true;         // letrec and calls
  unsigned min_inputs = 0;
  // Every rapidcheck_share-th program comes from checker/program_generator (0: none).
  unsigned rapidcheck_share = 4;
  unsigned max_inputs = 3;
};

// A deterministic random source (SplitMix64 seeding a 64-bit Mersenne twister).
class Rng {
 public:
  Rng(std::uint64_t seed, std::uint64_t index);
  std::uint64_t next() { return engine_(); }
  // Uniform in [0, n).
  unsigned below(unsigned n) { return n <= 1 ? 0 : static_cast<unsigned>(engine_() % n); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(engine_) < p; }

 private:
  std::mt19937_64 engine_;
};

// Program number `index` of the run with `seed`.
Program generate_program(std::uint64_t seed, std::uint64_t index, const GenConfig& config);

// A random value of type t as decimal texts (for cotangents, tangents and points).
std::vector<std::string> random_value(Rng& rng, Type t);
// A random small type (real, unit, pairs, real^3).
Type random_type(Rng& rng, unsigned depth = 2);

}  // namespace adlang::checker
