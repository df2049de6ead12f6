class P:
    pass
p = P()
p.x = 1
p.x
