# Figure 3.4 of the thesis: functions defined with @function.Defun alone are called by name.
import tensorflow as tf
from tensorflow.python.framework import function

@function.Defun(tf.int32)
def G(y):
    return y

@function.Defun(tf.int32)
def MyFunc(x):
    return G(x+1)

a = tf.constant(4)
b = tf.constant(5)
result = MyFunc(a) + MyFunc(b)

with tf.Session() as sess:
    print(sess.run(result))
