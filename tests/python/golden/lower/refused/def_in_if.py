x = 3
if x > 0:
    def f(y):
        return 1
r = f(2)


def f(y):
    return 2


print(r)
