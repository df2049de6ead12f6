c = 1
if c > 0:
    y = 2.0
print(y)
