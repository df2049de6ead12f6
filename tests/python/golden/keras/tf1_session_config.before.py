# Horovod's TF1 Keras example: a session that only carries a config to Keras is not a
# second training loop; the config pins the GPU.
import keras
import tensorflow as tf
from keras import backend as K

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
K.set_session(tf.Session(config=config))

model = keras.models.Sequential()
model.add(keras.layers.Dense(10))
opt = keras.optimizers.Adadelta(1.0)
model.compile(loss="mse", optimizer=opt)
x_train = y_train = None
model.fit(x_train, y_train, epochs=12)
