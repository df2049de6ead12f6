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
    grads_and_vars = list(zip(grads, variables))
    op = opt.apply_gradients(grads_and_vars)
    if not hvd_broadcast_done:
        hvd.broadcast_variables([x[1] for x in grads_and_vars], root_rank=0)
        hvd.broadcast_variables(opt.variables(), root_rank=0)
        hvd_broadcast_done = True
    return op
