# tf.enable_eager_execution given the script's own config: pinned where it is created.
import tensorflow as tf

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
tf.enable_eager_execution(config=config)
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.train.AdamOptimizer()
for x, y in tf.data.Dataset.from_tensor_slices((tf.ones([8, 3]), tf.ones([8, 1]))).batch(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x) - y)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
