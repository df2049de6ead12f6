# A TensorFlow 1 optimizer used with GradientTape in eager mode: its learning rate is scaled
# and its variables broadcast, as for Keras optimizers.
import tensorflow as tf

tf.compat.v1.enable_eager_execution()
model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
opt = tf.compat.v1.train.AdamOptimizer(0.001)
dataset = tf.data.Dataset.range(10)

for images, labels in dataset:
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(images))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
