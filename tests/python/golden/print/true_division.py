# / is always a float, also of two ints that divide exactly.
print((7 / 2, 6 / 3, 1 / 3, -1 / 4, 2.5 / 0.5))
