# set_session imported as a function (keras.backend), the session bound to a name, Keras
# imported only by its members: the checkpoint filter uses standalone Keras' classes.
import tensorflow as tf
from keras.backend import set_session
from keras.models import Sequential
from keras.layers import Dense
from keras.callbacks import ModelCheckpoint, EarlyStopping

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
sess = tf.Session(config=config)
set_session(sess)
model = Sequential([Dense(1)])
model.compile(optimizer='rmsprop', loss='mse')
model.fit(x, y, epochs=20, callbacks=[ModelCheckpoint('m.h5'), EarlyStopping()])
model.save('final.h5')
