# math functions, tuples (returned, unpacked, indexed), annotations, globals bound to numbers.
import math
from math import exp as e

SCALE = 2.5

def polar(r: float, t: float) -> tuple[float, float]:
    return (r * math.cos(t), r * math.sin(t))

def norm(p: tuple[float, float]) -> float:
    x, y = p
    return math.sqrt(x * x + y * y) * SCALE

def pows(x):
    return x ** 3 - x ** -2 + e(0) + math.log(math.e) + math.tanh(0) + abs(-x) + min(x, 1) + max(x, 1)

q = polar(2.0, math.pi / 3)
print((norm(q), q[1], pows(1.5)))
