import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
import math

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
model.fit(
    x,
    y,
    epochs=int(math.ceil(10 / hvd.size())), callbacks=callbacks, verbose=1 if hvd.rank() == 0 else 0,
)
