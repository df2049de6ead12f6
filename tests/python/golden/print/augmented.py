# x /= y makes a float of ints; x *= y of an int and a float a float; += of ints an int.
a = 7
a += 2
b = 7
b /= 2
c = 2
c *= 1.5
print((a, b, c))
