import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
callbacks = [tf.keras.callbacks.TensorBoard('./logs')]
model.fit(x, y, callbacks=callbacks, steps_per_epoch=500, verbose=2)
