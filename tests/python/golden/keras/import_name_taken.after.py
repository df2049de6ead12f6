import tensorflow as tf
import horovod.tensorflow.keras as hvd_1
hvd_1.init()
gpus_1 = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus_1:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus_1:
    tf.config.experimental.set_visible_devices(gpus_1[hvd_1.local_rank()], 'GPU')

hvd = 'a name the script already uses'
gpus = 4
