import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
hvd_broadcast_done = False

opt = tf.keras.optimizers.SGD(0.1 * hvd.size())


def step(grads, variables):
    global hvd_broadcast_done
    grads_and_vars_1 = [(g, v) for g, v in zip(grads, variables)]
    opt.apply_gradients(grads_and_vars=grads_and_vars_1)
    if not hvd_broadcast_done:
        hvd.broadcast_variables([x[1] for x in grads_and_vars_1], root_rank=0)
        hvd.broadcast_variables(opt.variables(), root_rank=0)
        hvd_broadcast_done = True
