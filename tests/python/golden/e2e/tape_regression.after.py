# Linear regression with a hand-written training loop (eager, no tf.function).
import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
hvd_broadcast_done = False

x = tf.random.normal([1000, 3])
y = tf.reduce_sum(x * [1.0, -2.0, 3.0], axis=1, keepdims=True)
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(learning_rate=0.01 * hvd.size())

for step in range(200):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
        tape = hvd.DistributedGradientTape(tape)
        grads = tape.gradient(loss, model.trainable_variables)
    grads_and_vars = list(zip(grads, model.trainable_variables))
    optimizer.apply_gradients(grads_and_vars)
    if not hvd_broadcast_done:
        hvd.broadcast_variables([x[1] for x in grads_and_vars], root_rank=0)
        hvd.broadcast_variables(optimizer.variables(), root_rank=0)
        hvd_broadcast_done = True
    if step % 50 == 0:
        if hvd.rank() == 0:
            print(step, float(loss))
if hvd.rank() == 0:
    model.save_weights('regression.ckpt')
