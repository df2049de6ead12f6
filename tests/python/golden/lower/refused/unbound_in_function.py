def f(x):
    return g
f(1)
