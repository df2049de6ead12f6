def f(n):
    while n > 0:
        if n == 3:
            break
        n = n - 1
    return n
f(5)
