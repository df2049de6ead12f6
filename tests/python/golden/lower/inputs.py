# Names free in the last statement are the program's inputs (--env); keywords of the language
# are renamed.
def f(then, x):
    return then * x + x / 2

f(a, b) + then
