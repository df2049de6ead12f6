# Parameters without annotations take the tuple shape their calls give them, also through other
# functions' parameters and results.
def add(p, q):
    return (p[0] + q[0], p[1] + q[1])


def scale(c, p):
    return (c * p[0], c * p[1])


def walk(p, n):
    if n == 0:
        return p
    return walk(add(p, scale(0.5, p)), n - 1)


def norm1(t):
    a, b = t
    return abs(a) + abs(b)


print(norm1(walk((1.0, -2.0), 4)))
