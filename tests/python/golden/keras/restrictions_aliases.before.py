import tensorflow as tf
t = tf
Adam = tf.keras.optimizers.Adam
layers = tf.keras.layers
opt = Adam(0.1)
ckpt = tf.train.Checkpoint()
ckpt2 = ckpt
import os
