import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
if verbose:
    if hvd.rank() == 0:
        print("model built")
x = 1
if hvd.rank() == 0:
    print(x)
y = 2
for i in range(3):
    pass
    if hvd.rank() == 0:
        model.save('m%d.h5' % i)
