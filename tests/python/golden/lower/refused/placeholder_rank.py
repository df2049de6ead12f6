import tensorflow as tf
x = tf.placeholder(tf.float32, shape=[3])
with tf.Session() as s:
  print(s.run(x, feed_dict={x: 1}))
