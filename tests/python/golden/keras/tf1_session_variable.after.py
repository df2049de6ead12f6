# The session bound to a name and then handed to set_session carries the config too; the
# script's own device list is replaced by the local rank's.
import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
import math
from tensorflow.keras import backend as K

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
sess = tf.Session(config=config)
K.set_session(sess)

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(optimizer=hvd.DistributedOptimizer(tf.keras.optimizers.Adam(learning_rate=0.001 * hvd.size())), loss='mse')
callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
model.fit(x, y, epochs=int(math.ceil(4 / hvd.size())), callbacks=callbacks, verbose=1 if hvd.rank() == 0 else 0)
