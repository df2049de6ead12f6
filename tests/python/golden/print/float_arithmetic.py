# With a float operand, + - * // % are floats, with the same floor rules.
print((7.0 + 1, 2 * 0.5, 7.5 // 2, -7.5 // 2, -7.5 % 2, 7.5 % -2, 6 // 2.0, 1 - 1.0))
