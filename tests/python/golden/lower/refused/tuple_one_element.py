def wrap(x):
    return (x,)
print(wrap(1.5)[0])
