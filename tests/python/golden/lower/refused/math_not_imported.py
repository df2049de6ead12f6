def f(x):
    return math.sqrt(x)


print(f(2.0))
