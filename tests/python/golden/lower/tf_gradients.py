# tf.gradients in graph mode is the reverse derivative rd.
import tensorflow as tf
x = tf.placeholder(tf.float32, shape=[])
y = tf.placeholder(tf.float32, shape=[])
h = x * y
z = tf.sin(h) + tf.square(x)
g = tf.gradients(z, [x, y])
with tf.Session() as sess:
    print(sess.run(g, feed_dict={x: 0.5, y: -2.0}))
