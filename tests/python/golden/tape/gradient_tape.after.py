import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

with tf.GradientTape() as tape:  # record
    loss = compute()
tape = hvd.DistributedGradientTape(tape)
grads = tape.gradient(loss, variables)

with tf.GradientTape(persistent=True) as t1, tf.GradientTape() as t2:
    y = f(x)
    t1 = hvd.DistributedGradientTape(t1)
    g = t1.gradient(y, x)
t2 = hvd.DistributedGradientTape(t2)
h = t2.gradient(y, x)

with open('log.txt') as log:
    log.write('done')
