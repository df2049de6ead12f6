import tensorflow as tf


def train_step(grads, variables):
    late_opt.apply_gradients(zip(grads, variables))


late_opt = tf.keras.optimizers.Adam(0.001)
opt = tf.keras.optimizers.Adam(0.001)
ops = [opt.apply_gradients(zip(grads, variables))]
opt2 = opt
if use_sgd:
    opt = tf.keras.optimizers.SGD(0.01)
opt = None
