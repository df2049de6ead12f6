# A TensorFlow 1 script in eager mode (Horovod's TF1 eager example before Horovod): the GPU is
# pinned in the config of tf.enable_eager_execution, not by tf.config.
import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
hvd_broadcast_done = False

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
tf.enable_eager_execution(config=config)

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
opt = tf.train.RMSPropOptimizer(0.001 * hvd.size())
dataset = tf.data.Dataset.from_tensor_slices((tf.zeros([64, 4]), tf.zeros([64], tf.int64))).batch(8)
for batch, (images, labels) in enumerate(dataset.take(20000 // hvd.size())):
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        loss_value = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    tape = hvd.DistributedGradientTape(tape)
    grads = tape.gradient(loss_value, model.variables)
    grads_and_vars = list(zip(grads, model.variables))
    opt.apply_gradients(grads_and_vars, global_step=tf.train.get_or_create_global_step())
    if not hvd_broadcast_done:
        hvd.broadcast_variables([x[1] for x in grads_and_vars], root_rank=0)
        hvd.broadcast_variables(opt.variables(), root_rank=0)
        hvd_broadcast_done = True
