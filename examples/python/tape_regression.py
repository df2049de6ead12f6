# Linear regression with a hand-written training loop (eager, no tf.function).
import tensorflow as tf

x = tf.random.normal([1000, 3])
y = tf.reduce_sum(x * [1.0, -2.0, 3.0], axis=1, keepdims=True)
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD()

for step in range(200):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    if step % 50 == 0: print(step, float(loss))
model.save_weights('regression.ckpt')
