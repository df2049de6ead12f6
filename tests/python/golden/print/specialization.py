# A function's result kind follows its arguments' kinds at each call.
def double(x):
    return x * 2


def half(x):
    return x / 2


print((double(3), double(3.0), double(True), half(4), double(double(1))))
