# tf.enable_eager_execution given the script's own config: pinned where it is created.
import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
hvd_broadcast_done = False

config = tf.ConfigProto()
config.gpu_options.visible_device_list = str(hvd.local_rank())
config.gpu_options.allow_growth = True
tf.enable_eager_execution(config=config)
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.train.AdamOptimizer(learning_rate=0.001 * hvd.size())
for x, y in tf.data.Dataset.from_tensor_slices((tf.ones([8, 3]), tf.ones([8, 1]))).batch(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x) - y)
    tape = hvd.DistributedGradientTape(tape)
    grads = tape.gradient(loss, model.trainable_variables)
    grads_and_vars = list(zip(grads, model.trainable_variables))
    opt.apply_gradients(grads_and_vars)
    if not hvd_broadcast_done:
        hvd.broadcast_variables([x[1] for x in grads_and_vars], root_rank=0)
        hvd.broadcast_variables(opt.variables(), root_rank=0)
        hvd_broadcast_done = True
