# if/else statements, conditional expressions, local assignments, !=, and/or/not.
def sign(x):
    if x > 0:
        return 1
    elif x == 0:
        return 0
    return -1

def clamp(x, lo, hi):
    y = x
    if y < lo:
        y = lo
    if y > hi:
        y = hi
    return y

def pick(a, b):
    ok = a != b and not a < 0
    return a if ok or b == 3 else b

print(sign(-2.5) + clamp(7, 0, 5) + pick(1, 2) + pick(2, 2))
