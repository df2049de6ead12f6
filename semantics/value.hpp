// Closed values (paper Sec. 3): a closed value of type T denotes a vector in R^|T| (Sec. 5),
// so at run time a value is its flat vector of scalars; its type comes from the term it is
// the value of. Printing follows docs/design.md Sec. 3: (1.5, (*, 2)), reals in shortest
// round-trip form, left-nested tuples flat: ((1, 2), 3) prints as (1, 2, 3).
#pragma once

#include <boost/container/small_vector.hpp>
#include <string>
#include <string_view>

#include "lang/type.hpp"
#include "semantics/scalar.hpp"

namespace adlang {

template <class S>
using Value = boost::container::small_vector<S, 4>;

// Prints the value of type `t` whose scalars start at `data`.
template <class S>
std::string print_value(Type t, const S* data);

template <class S>
std::string print_value(Type t, const Value<S>& v) {
  return print_value(t, v.data());
}

// Prints the value as JSON: a number, null for *, an array for a pair (nested as the type).
template <class S>
std::string print_value_json(Type t, const S* data);

// A closed value read from text (the --env values): numbers (with an optional leading '-'),
// * or (), and tuples of these, in the concrete syntax.
template <class S>
struct ParsedValue {
  Type type;
  Value<S> value;
};

// Thrown for text that is not a closed value or not representable in the precision.
class ValueSyntaxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class S>
ParsedValue<S> parse_value(std::string_view text);

}  // namespace adlang
