# A TensorFlow 1 optimizer used with GradientTape in eager mode: its learning rate is scaled
# and its variables broadcast, as for Keras optimizers.
import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
hvd_broadcast_done = False

config = tf.compat.v1.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
tf.compat.v1.enable_eager_execution(config=config)
model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
opt = tf.compat.v1.train.AdamOptimizer(0.001 * hvd.size())
dataset = tf.data.Dataset.range(10)

for images, labels in dataset:
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(images))
    tape = hvd.DistributedGradientTape(tape)
    grads = tape.gradient(loss, model.trainable_variables)
    grads_and_vars = list(zip(grads, model.trainable_variables))
    opt.apply_gradients(grads_and_vars)
    if not hvd_broadcast_done:
        hvd.broadcast_variables([x[1] for x in grads_and_vars], root_rank=0)
        hvd.broadcast_variables(opt.variables(), root_rank=0)
        hvd_broadcast_done = True
