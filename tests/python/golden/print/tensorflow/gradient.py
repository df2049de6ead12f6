# tf.gradients: a derivative is a float (TensorFlow's gradients are float tensors).
import tensorflow as tf
x = tf.placeholder(tf.float32, shape=[])
y = x * x + 1
g = tf.gradients(y, [x])
with tf.Session() as sess:
  print(sess.run(g[0], feed_dict={x: 3.0}))
