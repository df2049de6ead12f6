#include "semantics/undefined.hpp"

#include "support/setting_hint.hpp"
#include "support/stack.hpp"

namespace adlang {

const char* to_string(UndefinedKind k) {
  switch (k) {
    case UndefinedKind::OpDomain:
      return "operator outside its domain";
    case UndefinedKind::Predicate:
      return "predicate undefined";
    case UndefinedKind::Range:
      return "outside the range of the precision";
    case UndefinedKind::Fuel:
      return "out of fuel";
    case UndefinedKind::Unfold:
      return "beyond the unfolding bound";
    case UndefinedKind::Depth:
      return "nested too deeply";
    case UndefinedKind::TraceSize:
      return "trace too large";
    case UndefinedKind::Unsupported:
      return "unsupported in this precision";
    case UndefinedKind::Repeats:
      return "the evaluation repeats forever";
  }
  return "undefined";
}

void throw_nested_too_deeply(SourceLoc loc) {
  throw Undefined(UndefinedKind::Depth, loc,
                  "evaluation is nested too deeply for the stack (the recursion may not "
                  "terminate)",
                  {"adlang evaluates on a 4 GiB stack (64 MiB in sanitizer builds); a deeper "
                   "recursion needs " +
                   setting_hint(Setting::Fuel, "N") + " to stop it or a different formulation"});
}

}  // namespace adlang
