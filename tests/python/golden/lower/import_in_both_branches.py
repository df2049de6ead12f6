# An import in both branches of an if binds the module on every path.
x = 3
if x > 0:
    import math
else:
    import math
print(math.sqrt(4))
