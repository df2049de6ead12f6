// Shrinking a failing program to a small one that still fails, keeping it well typed: every
// candidate replaces a subterm by one of its own subterms of the same type or by a constant of
// that type (through the validating factories, so the result is typed by construction), drops
// unused inputs, or simplifies an input's value; a candidate must be well scoped (Fig. 1) and
// still fail. Greedy, first improvement, until no candidate fails or the budget runs out.
#pragma once

#include <functional>

#include "checker/program.hpp"

namespace adlang::checker {

struct ShrinkStats {
  unsigned steps = 0;       // accepted shrinks
  unsigned candidates = 0;  // candidates tried
};

Program shrink(const Program& failing, const std::function<bool(const Program&)>& still_fails,
               unsigned max_candidates = 4000, ShrinkStats* stats = nullptr);

}  // namespace adlang::checker
