# abs, min, max keep their argument's kind (min/max return one of them); int and float convert.
print((abs(-3), abs(-2.5), abs(True), min(2, 3), max(2.5, 1.5), int(-2.7), int(2.7), float(3),
       -(-4), +True))
