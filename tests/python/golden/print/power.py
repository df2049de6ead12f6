# An int to a non-negative int power is an int; to a negative one, or a float, a float.
print((2 ** 10, 2 ** 0, (-3) ** 3, 2 ** -2, 2.0 ** 3, 10 ** 15, 10 ** 16, 2 ** 62))
