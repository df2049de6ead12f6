// Sizes of terms, for reports (`adlang diff`, benchmarks): R's output shares subterms, so its
// size as a tree (what printing and evaluation walk) can be exponentially larger than the
// number of distinct nodes in memory.
#pragma once

#include <cstdint>

#include "lang/term.hpp"

namespace adlang {

struct TermSize {
  double tree = 0;        // nodes counted with multiplicity (a double: it can be huge)
  std::uint64_t dag = 0;  // distinct nodes
};

TermSize term_size(const Term& t);

}  // namespace adlang
