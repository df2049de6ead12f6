import tensorflow.compat.v1 as tf

sess = tf.Session()
sess.run(tf.global_variables_initializer())
