// Pragmas of a .ad program: comment lines before its first term or definition of the form
//   -- pragma: predicates total
// which choose what a command-line flag would (here --predicates), so that a program printed
// from another (adlang fmt prog.py, whose Python comparisons are total) runs as that one did.
// A flag given on the command line takes precedence; any other comment is only a comment.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace adlang {

// The text that starts a pragma line.
inline constexpr std::string_view kPragmaPrefix = "-- pragma: ";

// The predicates a program's pragma chooses ("strict" or "total"), if it has one.
std::optional<std::string> predicates_pragma(std::string_view text);

// The pragma line choosing `predicates` (with its newline).
std::string predicates_pragma_line(const std::string& predicates);

}  // namespace adlang
