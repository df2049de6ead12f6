# The session bound to a name and then handed to set_session carries the config too; the
# script's own device list is replaced by the local rank's.
import tensorflow as tf
from tensorflow.keras import backend as K

config = tf.ConfigProto()
config.gpu_options.visible_device_list = "0"
sess = tf.Session(config=config)
K.set_session(sess)

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(optimizer=tf.keras.optimizers.Adam(), loss='mse')
model.fit(x, y, epochs=4)
