y = N + 1.0
N = 3.0
print(y)
