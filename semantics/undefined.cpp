#include "semantics/undefined.hpp"

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
  }
  return "undefined";
}

}  // namespace adlang
