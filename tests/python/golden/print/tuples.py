# Tuples print their items' kinds; nested tuples keep their nesting; t[i] is the item's kind.
t = (1, 2.5, True)
u = ((1, 2.0), 3)
print((t[1], t[-1], u, u[0][0], t))
