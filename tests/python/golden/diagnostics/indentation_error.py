import tensorflow as tf
if True:
print("x")
