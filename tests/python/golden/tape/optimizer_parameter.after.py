# The optimizer reaches the training function as a parameter under another name: it is
# broadcast after the first step under the parameter's name.
import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
hvd_broadcast_done = False

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
optimizer = tf.keras.optimizers.Adam(0.001 * hvd.size())
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy()


def train(net, opt, data):
    global hvd_broadcast_done
    for images, labels in data:
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, net(images))
        tape = hvd.DistributedGradientTape(tape)
        grads = tape.gradient(loss, net.trainable_variables)
        grads_and_vars = list(zip(grads, net.trainable_variables))
        opt.apply_gradients(grads_and_vars)
        if not hvd_broadcast_done:
            hvd.broadcast_variables([x[1] for x in grads_and_vars], root_rank=0)
            hvd.broadcast_variables(opt.variables(), root_rank=0)
            hvd_broadcast_done = True


dataset = tf.data.Dataset.range(10)
train(model, optimizer, dataset)
