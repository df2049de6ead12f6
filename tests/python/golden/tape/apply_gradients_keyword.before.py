import tensorflow as tf

opt = tf.keras.optimizers.SGD(0.1)


def step(grads, variables):
    opt.apply_gradients(grads_and_vars=[(g, v) for g, v in zip(grads, variables)])
