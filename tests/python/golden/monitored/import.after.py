import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()
