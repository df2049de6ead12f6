for x in [1, 2]:
    y = x
y
