import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
if verbose: print("model built")
x = 1; print(x); y = 2
for i in range(3):
    pass; model.save('m%d.h5' % i)
