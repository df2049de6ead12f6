x = 3
print(0 if x < 0 else 2.5)
