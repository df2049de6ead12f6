def f(x):
    y = N
    N = 2
    return y + N
N = 1
print(f(1))
