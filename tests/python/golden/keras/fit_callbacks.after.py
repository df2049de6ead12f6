import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
callbacks = [tf.keras.callbacks.TensorBoard('./logs')]
callbacks_1 = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
callbacks_1 += [callback for callback in callbacks if hvd.rank() == 0 or not isinstance(callback, (tf.keras.callbacks.ModelCheckpoint, tf.keras.callbacks.TensorBoard))]
model.fit(x, y, callbacks=callbacks_1, steps_per_epoch=500 // hvd.size(), verbose=2 if hvd.rank() == 0 else 0)
