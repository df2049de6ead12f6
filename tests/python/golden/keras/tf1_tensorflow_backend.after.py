# set_session of keras.backend.tensorflow_backend with the config written inline.
import tensorflow as tf
import horovod.keras as hvd
hvd.init()
import math
import keras
from keras.backend.tensorflow_backend import set_session

config_1 = tf.ConfigProto()
config_1.gpu_options.allow_growth = True
config_1.gpu_options.visible_device_list = str(hvd.local_rank())
set_session(tf.Session(config=config_1))
model = keras.Sequential([keras.layers.Dense(1)])
model.compile(optimizer=hvd.DistributedOptimizer(keras.optimizers.Adam(lr=0.001 * hvd.size())), loss='mse')
callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
model.fit(x, y, epochs=int(math.ceil(2 / hvd.size())), callbacks=callbacks, verbose=1 if hvd.rank() == 0 else 0)
