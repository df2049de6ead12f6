// Undefinedness (the paper's bottom): every way evaluation can fail to produce a value is
// reported with its reason and the location of the term responsible (docs/design.md Sec. 4).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "lang/source.hpp"
#include "support/stack.hpp"

namespace adlang {

enum class UndefinedKind {
  OpDomain,     // an operator outside its open domain: log 0, x / 0
  Predicate,    // a strict predicate where its two sides are equal
  Range,        // a result outside the range of the chosen precision: exp(1000) in double
  Fuel,         // recursion beyond the fuel (--fuel)
  Unfold,       // recursion beyond the unfolding bound of the limited language (--unfold)
  Depth,        // evaluation nested deeper than the stack allows
  TraceSize,    // a trace or derivative larger than the size limit (--max-trace)
  Unsupported,  // an operation outside the precision's fragment (sin in exact mode)
  Repeats,      // a call reached again with the same closure and argument (repeated_call.hpp)
};

const char* to_string(UndefinedKind k);

class Undefined : public std::runtime_error {
 public:
  Undefined(UndefinedKind kind, SourceLoc loc, std::string reason,
            std::vector<std::string> notes = {})
      : std::runtime_error(reason), kind_(kind), loc_(loc), notes_(std::move(notes)) {}
  UndefinedKind kind() const { return kind_; }
  SourceLoc loc() const { return loc_; }
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  UndefinedKind kind_;
  SourceLoc loc_;
  std::vector<std::string> notes_;
};

// Throws Undefined(Depth) at `loc`: the evaluator's stack is nearly exhausted.
[[noreturn]] void throw_nested_too_deeply(SourceLoc loc);

// Undefined(Depth) at `loc` when the evaluator's stack is nearly exhausted; else the frame's
// StackScope (support/stack.hpp). Inline: every evaluator and the compiler call it at each
// node, and the check is one comparison.
inline StackScope check_evaluation_depth(SourceLoc loc) {
  if (stack_nearly_exhausted(StackFrameBytes::Evaluator)) throw_nested_too_deeply(loc);
  return StackScope(StackFrameBytes::Evaluator);
}

}  // namespace adlang
