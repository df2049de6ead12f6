// Numbers in a printed value rounded for a picture, as micrograd shows them: 0.7318601701098453
// becomes 0.7319, (9.412118485241757, 2) becomes (9.412, 2). The picture keeps the full text
// for its tooltip.
#pragma once

#include <string>

namespace adlang {

// `printed` (a value as print_value writes it) with each decimal number that has more than
// `digits` significant digits rounded to `digits` (printf's %g), and each exact fraction p/q
// longer than 2 * digits + 1 characters written as such a decimal. The rest is kept.
std::string with_significant_digits(const std::string& printed, int digits);

}  // namespace adlang
