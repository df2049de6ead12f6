# tf.keras with tf.compat.v1's Session and ConfigProto: horovod.tensorflow.keras, the config pins
# the GPU.
import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
import math
from tensorflow import keras

config = tf.compat.v1.ConfigProto()
config.gpu_options.visible_device_list = str(hvd.local_rank())
config.gpu_options.allow_growth = True
tf.compat.v1.keras.backend.set_session(tf.compat.v1.Session(config=config))

model = keras.Sequential([keras.layers.Dense(10, activation='softmax')])
model.compile(optimizer=hvd.DistributedOptimizer(keras.optimizers.SGD(0.01 * hvd.size())), loss='sparse_categorical_crossentropy')
callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
model.fit(x, y, epochs=int(math.ceil(5 / hvd.size())), callbacks=callbacks, verbose=1 if hvd.rank() == 0 else 0)
