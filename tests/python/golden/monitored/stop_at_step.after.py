import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

h1 = tf.train.StopAtStepHook(last_step=(steps + 1) // hvd.size())
h2 = tf.train.StopAtStepHook(num_steps=500 // hvd.size())
h3 = [tf.train.StopAtStepHook(1000 // hvd.size())]
hooks = {'stop': tf.train.StopAtStepHook(last_step=10 // hvd.size())}
