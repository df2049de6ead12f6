# `a and b` / `a or b` is one of its operands: ints give an int, bools a bool.
x = 3
print((x and 5, 0 or x, x > 0 and x < 10, x < 0 or x > 10, not x))
