import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

schedule = tf.keras.optimizers.schedules.ExponentialDecay(
    initial_learning_rate=(0.1 + 0.01) * hvd.size(),
    decay_steps=100000,
    decay_rate=0.96)
