# tf.keras with tf.compat.v1's Session and ConfigProto: horovod.tensorflow.keras, the config pins
# the GPU.
import tensorflow as tf
from tensorflow import keras

config = tf.compat.v1.ConfigProto()
config.gpu_options.allow_growth = True
tf.compat.v1.keras.backend.set_session(tf.compat.v1.Session(config=config))

model = keras.Sequential([keras.layers.Dense(10, activation='softmax')])
model.compile(optimizer=keras.optimizers.SGD(0.01), loss='sparse_categorical_crossentropy')
model.fit(x, y, epochs=5)
