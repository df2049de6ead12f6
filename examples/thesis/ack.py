# Ackermann (the thesis, Appendix C, as printed). The script feeds m = 2, n = 3; Table 6.2's
# first row is Ack(3, 3) = 61.
#
# $ adlang run examples/thesis/ack.py
# > 9
# $ adlang run examples/thesis/ack.py --env m=3 --env n=3
# > 61
import tensorflow as tf
from tensorflow.python.framework import function
ack = function.Declare("Ack", [("m",tf.int32),("n",tf.int32)],[("ret",tf.int32)])
@function.Defun(tf.int32, tf.int32, func_name="Ack", out_names=["ret"])
def AckImpl(m,n):
  def f1():
     return n + 1
  def f2():
     def ff1():
       return ack(m-1,1)
     def ff2():
        return ack(m-1, ack(m, n-1))
     return tf.cond(tf.equal(n, 0), ff1, ff2)
  return tf.cond(tf.equal(m, 0), f1, f2)
AckImpl.add_to_graph(tf.get_default_graph())
n = tf.placeholder(tf.int32, shape=[])
m = tf.placeholder(tf.int32, shape=[])
res = ack(m,n)
with tf.Session() as sess:
  print(sess.run(res, feed_dict={m:2, n:3}))
