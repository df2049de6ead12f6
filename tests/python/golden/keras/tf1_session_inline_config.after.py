# keras.backend.set_session with the ConfigProto written inline: it is named and pinned; an
# optimizer given by name is standalone Keras' own, with its lr positional.
import keras
import keras.backend
import tensorflow as tf
import horovod.keras as hvd
hvd.init()
import math

config_1 = tf.ConfigProto(log_device_placement=False)
config_1.gpu_options.allow_growth = True
config_1.gpu_options.visible_device_list = str(hvd.local_rank())
keras.backend.set_session(tf.Session(config=config_1))

model = keras.models.Sequential()
model.add(keras.layers.Dense(1, input_dim=4))
optim = keras.optimizers.Adadelta(1.0 * hvd.size())
optim = hvd.DistributedOptimizer(optim)
model.compile(optimizer=optim, loss='mse')
callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
model.fit(x, y, 32, int(math.ceil(10 / hvd.size())), callbacks=callbacks, verbose=1 if hvd.rank() == 0 else 0)
