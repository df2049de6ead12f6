# Names free in the last statement are the program's inputs (--env); operators Python and
# TensorFlow agree on: % and // floor, int truncates toward zero; keywords of the language
# are renamed.
def f(then, x):
    return then * x % 3 + x // 2 + int(-x / 4)

f(a, b) + then
