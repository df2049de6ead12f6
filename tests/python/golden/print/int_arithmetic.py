# + - * // % of ints are ints; // and % floor toward minus infinity (% has the divisor's sign).
print((7 + 3 * 2 - 1, 7 // 2, -7 // 2, 7 // -2, 7 % 3, -7 % 3, 7 % -3, -7 % -3))
