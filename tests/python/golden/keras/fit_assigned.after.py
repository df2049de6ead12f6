import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
import math

model = tf.keras.models.Sequential()
callbacks_1 = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
callbacks_1 += [callback for callback in [tf.keras.callbacks.EarlyStopping()] if hvd.rank() == 0 or not isinstance(callback, (tf.keras.callbacks.ModelCheckpoint, tf.keras.callbacks.TensorBoard))]
history = model.fit(dataset, epochs=int(math.ceil(5 / hvd.size())), callbacks=callbacks_1, verbose=1 if hvd.rank() == 0 else 0)
