# Globals are looked up when a function runs: f is defined before N and K, and called after.
import math


def f(x):
    return x * N + math.sqrt(K)


N = 3.0
K = 4.0
c = 1
if c > 0:
    y = 2.0
else:
    y = 3.0
if c > 5:
    z = 1.0  # bound on one path only, and never read after the if
print(f(y))
