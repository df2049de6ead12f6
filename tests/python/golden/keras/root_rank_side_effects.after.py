import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
print("next batch:", next(iterator))
if hvd.rank() == 0:
    print("loss", float(loss), "{:.3f}".format(acc))
