# Fibonacci (the thesis, Appendix C, as printed; the missing closing parenthesis of tf.cond
# added). Table 6.1: fib(24) = 75025.
#
# $ adlang run examples/thesis/fib.py
# > 75025
import tensorflow as tf
from tensorflow.python.framework import function
fib = function.Declare("Fib", [("n", tf.int32)], [("ret", tf.int32)])
@function.Defun(tf.int32, func_name="Fib", out_names=["ret"])
def FibImpl(n):
  return tf.cond(tf.less_equal(n, 1),
     lambda: tf.constant(1),
     lambda: fib(n-1) + fib(n-2))
FibImpl.add_to_graph(tf.get_default_graph())
n = tf.placeholder(tf.int32, shape=[])
x = fib(n)
with tf.Session() as sess:
  print(sess.run(x, feed_dict={n: 24}))
