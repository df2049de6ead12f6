# set_session of keras.backend.tensorflow_backend with the config written inline.
import tensorflow as tf
import keras
from keras.backend.tensorflow_backend import set_session

set_session(tf.Session(config=tf.ConfigProto()))
model = keras.Sequential([keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.Adam(), loss='mse')
model.fit(x, y, epochs=2)
