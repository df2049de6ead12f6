x = 2
print(x > 0 and x)
