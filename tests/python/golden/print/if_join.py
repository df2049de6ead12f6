# An if whose branches assign values of the same kind.
def sign(x):
    if x > 0:
        s = 1
    elif x < 0:
        s = -1
    else:
        s = 0
    return s


def clamp(x):
    if x > 1.0:
        return 1.0
    return max(x, 0.0)


print((sign(-2.5), sign(3), clamp(2.5), clamp(0.5)))
