# math's functions are floats, but math.floor is an int (Python 3).
import math
print((math.sqrt(16), math.floor(2.5), math.floor(-2.5), math.exp(0), math.log(1),
       math.sin(0), math.cos(0), math.tanh(0.5), math.pi, math.e))
