def g(x):
    return f(x)


y = g(1.0)


def f(x):
    return x
print(y)
