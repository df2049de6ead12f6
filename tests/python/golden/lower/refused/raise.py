def f(x):
    raise ValueError(x)
f(1)
