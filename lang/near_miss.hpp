// "did you mean NAME?": the name in scope nearest to a misspelled one, by edit distance (as
// rustc's and clang's suggestions), for the diagnostics of unbound names in the .ad and Python
// front ends.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace adlang {

// The optimal string alignment distance between a and b: insertions, deletions, substitutions
// and transpositions of neighbours, each 1 (a letter that differs only in case is a
// substitution).
std::size_t edit_distance(const std::string& a, const std::string& b);

// The candidate nearest to `wrong` when it is near enough to be a slip: at most a third of
// `wrong`'s length (at least 1) edits away, or the same ignoring case. Ties go to the earlier
// candidate; `wrong` itself is never suggested.
std::optional<std::string> nearest_name(const std::string& wrong,
                                        const std::vector<std::string>& candidates);

// The note "did you mean 'NAME'?" for nearest_name, or nullopt.
std::optional<std::string> did_you_mean(const std::string& wrong,
                                        const std::vector<std::string>& candidates);

}  // namespace adlang
