import tensorflow as tf

opt = tf.keras.optimizers.SGD(0.1)


def step(grads, variables):
    op = opt.apply_gradients(zip(grads, variables))
    return op
