print(75025)
