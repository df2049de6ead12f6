# A session without a config is given one; standalone Keras imported only by its members gets
# `keras` imported for the optimizer the rules write; steps_per_epoch is divided, not epochs.
import tensorflow as tf
from keras import backend as K
from keras.models import Sequential
from keras.layers import Dense

K.set_session(tf.Session())
model = Sequential([Dense(1)])
model.compile(optimizer='sgd', loss='mse')
model.fit(x, y, epochs=3, steps_per_epoch=100)
