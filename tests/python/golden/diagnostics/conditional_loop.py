import tensorflow as tf

opt = tf.keras.optimizers.Adam()
if use_tape:
    with tf.GradientTape() as tape:
        loss = f()
train = run_training


def train_step():
    with tf.GradientTape() as tape:
        pass


schedule(train_step)
alias = train_step
