# Horovod's TF1 Keras example: a session that only carries a config to Keras is not a
# second training loop; the config pins the GPU.
import keras
import tensorflow as tf
import horovod.keras as hvd
hvd.init()
import math
from keras import backend as K

config = tf.ConfigProto()
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
model.fit(x_train, y_train, epochs=int(math.ceil(12 / hvd.size())), callbacks=callbacks, verbose=1 if hvd.rank() == 0 else 0)
