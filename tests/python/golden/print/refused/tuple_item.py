x = 3
print((1, x if x > 0 else 0.0, True))
