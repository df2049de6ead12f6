def f(x):
    def g(y):
        return x + y
    return g(1)
f(2)
