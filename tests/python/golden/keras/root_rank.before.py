import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
print("training")
tf.print("step", 3)
model.summary()
model.save_weights('w.h5')
other.load_weights('w.h5')
model.save('m.h5',
           save_format='h5')
