# % and // are Python's floor modulo and floor division (the sign of the divisor), int()
# truncates toward zero; a while loop with a tuple assignment.
def power(b, e):
    r = 1
    while e > 0:
        if e % 2 == 1:
            r = r * b
        b = b * b
        e = e // 2
    return r

def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a

print((7 % -3, -7 // 2, -7.5 % 2, int(-3.7), int(3.7), power(3, 13), gcd(1071, 462)))
