import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay([1000, 2000], [0.1, 0.01, 0.001])
opt = tf.keras.optimizers.SGD(learning_rate=schedule)
opt = hvd.DistributedOptimizer(opt)
