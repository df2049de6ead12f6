# Recursion and mutual recursion; booleans held as reals.
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)

def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)

def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)

print(fact(10) + (100 if is_even(12) else 0))
