import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

tf.disable_v2_behavior()
