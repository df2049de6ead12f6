# A parameter the calls give a tuple and a float: Python fails on the float (t[0]).
def first(t):
    return t[0]


print(first((1.5, 2.0)) + first(3.0))
