import tensorflow as tf

opt = tf.keras.optimizers.Adam(0.001)


@tf.function
def train_step(grads, variables):
    opt.apply_gradients(zip(grads, variables))


@tf.function(jit_compile=True)
def other_step(grads, variables):
    opt.apply_gradients(zip(grads, variables))
