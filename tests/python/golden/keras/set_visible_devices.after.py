import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus_1 = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus_1:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus_1:
    tf.config.experimental.set_visible_devices(gpus_1[hvd.local_rank()], 'GPU')

gpus = tf.config.experimental.list_physical_devices('GPU')
