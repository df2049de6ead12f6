def f(x):
    if x > 0:
        return 1
    return 0.5


print(f(2))
