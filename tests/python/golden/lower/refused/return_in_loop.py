def f(n):
    while n > 0:
        return n
    return 0
f(5)
