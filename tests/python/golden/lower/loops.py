# while and for-range loops become tail-recursive functions of the variables they change.
def sum_squares(n):
    total = 0
    i = 0
    while i < n:
        total += i * i
        i = i + 1
    return total

def countdown(n):
    acc = 0
    for k in range(n, 0, -2):
        acc = acc * 10 + k
    return acc

def nested(n):
    s = 0
    for i in range(n):
        for j in range(i):
            s += j
    return s

print(sum_squares(10) + countdown(7) + nested(5))
