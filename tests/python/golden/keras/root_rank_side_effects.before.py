import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
print("next batch:", next(iterator))
print("loss", float(loss), "{:.3f}".format(acc))
