s = "text"
s
