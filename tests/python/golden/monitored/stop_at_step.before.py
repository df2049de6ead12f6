import tensorflow.compat.v1 as tf

h1 = tf.train.StopAtStepHook(last_step=steps + 1)
h2 = tf.train.StopAtStepHook(num_steps=500)
h3 = [tf.train.StopAtStepHook(1000)]
hooks = {'stop': tf.train.StopAtStepHook(last_step=10)}
