# Floats print as repr: the shortest digits that read back, and a ".0" on whole numbers.
print((1e16, 1e15, 1.5e-5, 0.1 + 0.2, 123456789.0, 1e-4, 1e22, 2.5e-300, -0.5))
