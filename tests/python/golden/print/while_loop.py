# A while loop over ints, with // and % (the Collatz sequence of 27), and one over floats.
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return (steps, n)


def halvings(x):
    count = 0
    while x > 1.0:
        x = x / 2
        count = count + 1
    return (count, x)


print((collatz_steps(27), halvings(1000.0)))
