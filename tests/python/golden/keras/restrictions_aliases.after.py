import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
t = tf
Adam = tf.keras.optimizers.Adam
layers = tf.keras.layers
opt = Adam(0.1)
ckpt = tf.train.Checkpoint()
ckpt2 = ckpt
import os
