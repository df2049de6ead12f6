s = 0
for i in range(3):
    s = s + i
print(i)
