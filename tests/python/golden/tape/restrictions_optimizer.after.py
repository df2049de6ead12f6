import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')


def train_step(grads, variables):
    late_opt.apply_gradients(zip(grads, variables))


late_opt = tf.keras.optimizers.Adam(0.001 * hvd.size())
opt = tf.keras.optimizers.Adam(0.001 * hvd.size())
ops = [opt.apply_gradients(zip(grads, variables))]
opt2 = opt
if use_sgd:
    opt = tf.keras.optimizers.SGD(0.01 * hvd.size())
opt = None
