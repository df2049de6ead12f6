# x is the int 1 if the loop does not run, a float after an iteration.
x = 1
for i in range(3):
    x = x / 2
print(x)
