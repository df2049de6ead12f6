def f(x):
    x = x + 1
f(1)
