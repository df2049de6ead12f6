import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

opt = tf.keras.optimizers.Adam(learning_rate=base_lr * hvd.size(), beta_1=0.9)  # tuned
opt = hvd.DistributedOptimizer(opt)
