import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
hvd_broadcast_done = False
disc_opt_broadcast_done = False

gen_opt = tf.keras.optimizers.Adam(1e-4 * hvd.size())
disc_opt = tf.keras.optimizers.Adam(1e-4 * hvd.size())


def train_step(gen_grads, disc_grads, gen_vars, disc_vars):
    """Both networks in one step."""
    global hvd_broadcast_done, disc_opt_broadcast_done
    grads_and_vars = list(zip(gen_grads, gen_vars))
    gen_opt.apply_gradients(grads_and_vars)
    if not hvd_broadcast_done:
        hvd.broadcast_variables([x[1] for x in grads_and_vars], root_rank=0)
        hvd.broadcast_variables(gen_opt.variables(), root_rank=0)
        hvd_broadcast_done = True
    grads_and_vars_1 = list(zip(disc_grads, disc_vars))
    disc_opt.apply_gradients(grads_and_vars_1)
    if not disc_opt_broadcast_done:
        hvd.broadcast_variables([x[1] for x in grads_and_vars_1], root_rank=0)
        hvd.broadcast_variables(disc_opt.variables(), root_rank=0)
        disc_opt_broadcast_done = True
    grads_and_vars_2 = list(zip(gen_grads, gen_vars))
    gen_opt.apply_gradients(grads_and_vars_2)
    if not hvd_broadcast_done:
        hvd.broadcast_variables([x[1] for x in grads_and_vars_2], root_rank=0)
        hvd.broadcast_variables(gen_opt.variables(), root_rank=0)
        hvd_broadcast_done = True
