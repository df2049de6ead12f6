n = 3
while n > 0:
    t = n
    n = n - 1
print(t)
