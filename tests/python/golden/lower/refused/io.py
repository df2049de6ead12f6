open("f").read()
