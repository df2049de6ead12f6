def f(x):
    return x ** 0.5
f(2)
