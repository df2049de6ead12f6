for i in range(3):
    s = i * 2.0
print(s)
