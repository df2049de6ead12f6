import tensorflow as tf

model = tf.keras.models.Sequential()
history = model.fit(dataset, epochs=5, callbacks=[tf.keras.callbacks.EarlyStopping()])
