# Mutually recursive functions that return bools.
def even(n):
    if n == 0:
        return True
    return odd(n - 1)


def odd(n):
    if n == 0:
        return False
    return even(n - 1)


print((even(10), odd(10), even(7)))
