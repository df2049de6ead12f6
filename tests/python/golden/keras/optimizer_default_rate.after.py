import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

opt = tf.keras.optimizers.SGD(learning_rate=0.01 * hvd.size())
opt = hvd.DistributedOptimizer(opt)
opt2 = tf.keras.optimizers.Adam(beta_1=0.8, learning_rate=0.001 * hvd.size())
opt2 = hvd.DistributedOptimizer(opt2)
