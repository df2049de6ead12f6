N = 3.0


def f(c):
    if c > 0:
        N = 5.0
    return N


print(f(-1.0))
