# Comparisons and not are bools; in arithmetic a bool is an int (True + 1 == 2).
print((1 < 2, 2 == 3, 2 != 3, not 1, not 0, True + 1, -True, True * 2.5, False // 1))
