# set_session imported as a function (keras.backend), the session bound to a name, Keras
# imported only by its members: the checkpoint filter uses standalone Keras' classes.
import tensorflow as tf
import horovod.keras as hvd
hvd.init()
import math
from keras.backend import set_session
from keras.models import Sequential
from keras.layers import Dense
from keras.callbacks import ModelCheckpoint, EarlyStopping

config = tf.ConfigProto()
config.gpu_options.visible_device_list = str(hvd.local_rank())
config.gpu_options.allow_growth = True
sess = tf.Session(config=config)
set_session(sess)
model = Sequential([Dense(1)])
import keras as keras_1
optim = keras_1.optimizers.RMSprop(0.001 * hvd.size())
optim = hvd.DistributedOptimizer(optim)
model.compile(optimizer=optim, loss='mse')
callbacks_1 = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
callbacks_1 += [callback for callback in [ModelCheckpoint('m.h5'), EarlyStopping()] if hvd.rank() == 0 or not isinstance(callback, (keras_1.callbacks.ModelCheckpoint, keras_1.callbacks.TensorBoard))]
model.fit(x, y, epochs=int(math.ceil(20 / hvd.size())), callbacks=callbacks_1, verbose=1 if hvd.rank() == 0 else 0)
if hvd.rank() == 0:
    model.save('final.h5')
