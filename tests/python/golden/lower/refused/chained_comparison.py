def f(x):
    return 0 < x < 1
f(0.5)
