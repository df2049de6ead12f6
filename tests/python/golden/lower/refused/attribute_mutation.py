def f(t):
    t.x = 1
    return t
f(1)
