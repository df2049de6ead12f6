# sess.run of a list is a list of the fetches' values (numpy scalars print as Python's).
import tensorflow as tf
n = tf.placeholder(tf.int32, shape=[])
a = tf.add(n, 1)
b = tf.divide(n, 4)
c = tf.less(n, 2)
d = tf.cast(n, dtype=tf.float32)
with tf.Session() as sess:
  print(sess.run([a, b, c, d], feed_dict={n: 6}))
