import tensorflow as tf

gen_opt = tf.keras.optimizers.Adam(1e-4)
disc_opt = tf.keras.optimizers.Adam(1e-4)


def train_step(gen_grads, disc_grads, gen_vars, disc_vars):
    """Both networks in one step."""
    gen_opt.apply_gradients(zip(gen_grads, gen_vars))
    disc_opt.apply_gradients(zip(disc_grads, disc_vars))
    gen_opt.apply_gradients(zip(gen_grads, gen_vars))
