import tensorflow as tf
v = tf.Variable(1.0)
with tf.Session() as s:
  print(s.run(v))
