# fac(0.0) is the int 1, fac(5.0) the float 120.0: the kind depends on the argument's value.
def fac(n):
    return 1 if n == 0 else n * fac(n - 1)


print(fac(5.0))
