x = -3
if x > 0:
    import math
r = math.sqrt(4)
import math
print(r)
