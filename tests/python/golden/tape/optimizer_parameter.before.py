# The optimizer reaches the training function as a parameter under another name: it is
# broadcast after the first step under the parameter's name.
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
optimizer = tf.keras.optimizers.Adam(0.001)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy()


def train(net, opt, data):
    for images, labels in data:
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, net(images))
        grads = tape.gradient(loss, net.trainable_variables)
        opt.apply_gradients(zip(grads, net.trainable_variables))


dataset = tf.data.Dataset.range(10)
train(model, optimizer, dataset)
