import tensorflow as tf
c = tf.constant([1.0, 2.0])
with tf.Session() as s:
  print(s.run(c))
