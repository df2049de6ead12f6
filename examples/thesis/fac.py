# Simple example of distributing factorial across multiple workers, in localhost
# (the thesis, Appendix B, as printed; `sess.run(res, ...)` corrected to `result`, the name the
# script binds).
#
# $ adlang run examples/thesis/fac.py
# > 120
# $ adlang fmt examples/thesis/fac.py     (the program it lowers to, with its placements)
import tensorflow as tf
from tensorflow.python.framework import function
cluster = tf.train.ClusterSpec({"local": ["localhost:2222", "localhost:2223"]})
fac = function.Declare("Fac", [("n", tf.int32)], [("ret", tf.int32)])
@function.Defun(tf.int32, func_name="Fac", out_names=["ret"])
def FacImpl(n):
  def f1():
     with tf.device("/job:local/replica:0/task:0/device:CPU:0"):
       ret = tf.constant(1)
     return ret
  def f2():
     with tf.device("/job:local/replica:0/task:1/device:CPU:0"):
       ret = n * fac(n - 1)
     return ret
  with tf.device("/job:local/replica:0/task:1/device:CPU:0"):
     pred = tf.less_equal(n, 1)
  return tf.cond(pred, f1, f2)
FacImpl.add_to_graph(tf.get_default_graph())
n = tf.placeholder(tf.int32, shape=[])
result = fac(n)
with tf.Session("grpc://localhost:2222") as sess:
  print(sess.run(result, feed_dict={n: 5}))
