# Takeuchi as the thesis prints it (Appendix C): the Declare'd name "tak" and the Defun's
# func_name "Tak" differ in case, so TensorFlow would not find the definition either.
import tensorflow as tf
from tensorflow.python.framework import function
tak = function.Declare("tak", [("x", tf.int32), ("y", tf.int32), ("z",
   tf.int32)], [("ret", tf.int32)])
@function.Defun(tf.int32, tf.int32, tf.int32, func_name="Tak", out_names=["ret"])
def TakImpl(x,y,z):
  return tf.cond(tf.less(y, x),
       lambda: tak(tak(x-1,y,z), tak(y-1,z,x), tak(z-1,x,y)),
     lambda: z)
TakImpl.add_to_graph(tf.get_default_graph())
x = tf.placeholder(tf.int32, shape=[])
y = tf.placeholder(tf.int32, shape=[])
z = tf.placeholder(tf.int32, shape=[])
res = tak(x,y,z)
with tf.Session() as sess:
  print(sess.run(res, feed_dict={x:24, y:16, z:8}))
