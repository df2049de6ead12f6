import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
if hvd.rank() == 0:
    print("training")
if hvd.rank() == 0:
    tf.print("step", 3)
if hvd.rank() == 0:
    model.summary()
if hvd.rank() == 0:
    model.save_weights('w.h5')
if hvd.rank() == 0:
    other.load_weights('w.h5')
if hvd.rank() == 0:
    model.save('m.h5',
               save_format='h5')
