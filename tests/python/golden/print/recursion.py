# Recursion: the result's kind is a fixpoint over the calls.
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def fac(n):
    return 1 if n == 0 else n * fac(n - 1)


def power(x, n):
    return 1.0 if n == 0 else x * power(x, n - 1)


print((fib(20), fac(10), power(2, 10)))
