g = lambda x: x + 1
g(1)
