"""The functions of examples/fib.ad, ack.ad and tak.ad in Python, timed the way bench/eval_bench
times adlang: the compute time of one call (the source already compiled) as CPU time of the
process (time.process_time: the machine may be shared), best of REPEATS.

Usage: python3 python_reference.py NAME ARGS... ; prints the best time in seconds and the result.
The arithmetic is on floats, like adlang's reals, with the same guards.
"""
import sys
import time

sys.setrecursionlimit(100000)


def fib(n):
    return n if n < 1.5 else fib(n - 1) + fib(n - 2)


def ack(m, n):
    if m < 0.5:
        return n + 1
    if n < 0.5:
        return ack(m - 1, 1.0)
    return ack(m - 1, ack(m, n - 1))


def tak(x, y, z):
    if y < x - 0.5:
        return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y))
    return z


REPEATS = 7


def main():
    fn = {"fib": fib, "ack": ack, "tak": tak}[sys.argv[1]]
    args = [float(a) for a in sys.argv[2:]]
    fn(*args)  # warm-up
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        result = fn(*args)
        best = min(best, time.process_time() - start)
    print(f"{best:.9f} {result}")


if __name__ == "__main__":
    main()
