import tensorflow.compat.v1 as tf

config = 'the name is taken'
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train_op)
