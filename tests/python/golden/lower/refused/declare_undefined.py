import tensorflow as tf
from tensorflow.python.framework import function
fib = function.Declare("Fib", [("n", tf.int32)], [("ret", tf.int32)])
@function.Defun(tf.int32, func_name="Fob")
def FibImpl(n):
  return n
with tf.Session() as s:
  print(s.run(fib(1)))
