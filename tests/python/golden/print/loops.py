# Loops: a variable keeps its kind when every iteration keeps it.
def primes(n):
    count = 0
    k = 2
    while k <= n:
        d = 2
        prime = True
        while d * d <= k:
            if k % d == 0:
                prime = False
            d += 1
        if prime:
            count += 1
        k += 1
    return count


total = 0
for i in range(1, 11):
    total += i * i
mean = 0.0
for i in range(4):
    mean += i / 4
print((primes(100), total, mean))
