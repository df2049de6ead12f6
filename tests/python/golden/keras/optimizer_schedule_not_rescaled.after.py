import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

lr = tf.keras.optimizers.schedules.ExponentialDecay(0.1 * hvd.size(), 1000, 0.9)
opt = tf.keras.optimizers.Adam(lr)
opt = hvd.DistributedOptimizer(opt)
