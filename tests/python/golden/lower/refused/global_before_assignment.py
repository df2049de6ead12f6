def f(x):
    return x * N


y = f(2.0)
N = 3.0
print(y)
