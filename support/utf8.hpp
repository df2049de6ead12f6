// UTF-8 (RFC 3629, Sec. 4): the one definition of a well-formed sequence, read by the Python
// front end (a script must be UTF-8) and by the Jupyter kernel (its messages are JSON).
#pragma once

#include <cstddef>
#include <string_view>

namespace adlang {

// The length (1 to 4) of the well-formed UTF-8 sequence that starts at text[i], or 0 if none
// does: a stray continuation byte, a sequence cut short, an overlong form, a surrogate, or a
// code point above U+10FFFF.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

}  // namespace adlang
