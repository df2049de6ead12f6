import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

step = tf.Variable(0)
lr1 = tf.compat.v1.train.exponential_decay(learning_rate=0.1 * hvd.size(), global_step=step, decay_steps=10, decay_rate=0.9)
lr2 = tf.compat.v1.train.exponential_decay(base_lr * hvd.size(), step, 10, 0.9)
