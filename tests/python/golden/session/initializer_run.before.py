import tensorflow.compat.v1 as tf

with tf.Session() as sess:
    tf.global_variables_initializer().run()
