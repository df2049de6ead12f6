def first(t: tuple[float]) -> float:
    return t[0]
print(first(2.0))
