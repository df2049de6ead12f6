x = math.sqrt(2.0)
import math
print(x)
