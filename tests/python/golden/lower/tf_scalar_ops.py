# TensorFlow's scalar operations, comparisons as values, and tf.cond with nested conditions.
import tensorflow as tf
from tensorflow.python.framework import function
clip = function.Declare("Clip", [("v", tf.float32), ("lo", tf.float32)], [("ret", tf.float32)])
@function.Defun(tf.float32, tf.float32, func_name="Clip", out_names=["ret"])
def ClipImpl(v, lo):
  return tf.cond(tf.logical_and(tf.greater_equal(v, lo), tf.not_equal(v, 100.0)),
                 lambda: tf.multiply(v, 2.0),
                 lambda: tf.maximum(lo, tf.negative(v)))
ClipImpl.add_to_graph(tf.get_default_graph())
p = tf.placeholder(tf.float32, shape=[])
q = tf.exp(tf.math.log(tf.abs(p))) + tf.tanh(tf.sigmoid(tf.subtract(p, 1.0)))
with tf.Session() as sess:
  print(sess.run([clip(p, 0.5), q], feed_dict={p: 3}))
