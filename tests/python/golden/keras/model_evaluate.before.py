import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
loss = model.evaluate(x, y)
acc = model.evaluate(x, y, verbose=2)
model.evaluate(x, y)
