s = 0
for i in range(3):
    s = s + M
M = 2
print(s)
