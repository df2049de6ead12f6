# Horovod's TF1 Keras example: a session that only carries a config to Keras is not a
# second training loop; the config pins the GPU.
import keras
import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
from keras import backend as K

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
config.gpu_options.allow_growth = True
K.set_session(tf.Session(config=config))

model = keras.models.Sequential()
model.add(keras.layers.Dense(10))
opt = keras.optimizers.Adadelta(1.0 * hvd.size())
opt = hvd.DistributedOptimizer(opt)
model.compile(loss="mse", optimizer=opt)
x_train = y_train = None
callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
model.fit(x_train, y_train, epochs=12, callbacks=callbacks, verbose=1 if hvd.rank() == 0 else 0)
