# keras.backend.set_session with the ConfigProto written inline: it is named and pinned; an
# optimizer given by name is standalone Keras' own, with its lr positional.
import keras
import keras.backend
import tensorflow as tf

keras.backend.set_session(tf.Session(config=tf.ConfigProto(log_device_placement=False)))

model = keras.models.Sequential()
model.add(keras.layers.Dense(1, input_dim=4))
model.compile(optimizer='adadelta', loss='mse')
model.fit(x, y, 32, 10)
