"""Module docstring."""
import sys
import tensorflow as tf  # the framework
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

if hvd.rank() == 0:
    print(tf.__version__, file=sys.stderr)
