def f(x):
    return (x,) + (1,)
f(2)
