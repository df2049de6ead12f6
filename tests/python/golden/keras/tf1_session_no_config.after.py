# A session without a config is given one; standalone Keras imported only by its members gets
# `keras` imported for the optimizer the rules write; steps_per_epoch is divided, not epochs.
import tensorflow as tf
import horovod.keras as hvd
hvd.init()
from keras import backend as K
from keras.models import Sequential
from keras.layers import Dense

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
K.set_session(tf.Session(config=config))
model = Sequential([Dense(1)])
import keras as keras_1
optim = keras_1.optimizers.SGD(0.01 * hvd.size())
optim = hvd.DistributedOptimizer(optim)
model.compile(optimizer=optim, loss='mse')
callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
model.fit(x, y, epochs=3, steps_per_epoch=100 // hvd.size(), callbacks=callbacks, verbose=1 if hvd.rank() == 0 else 0)
