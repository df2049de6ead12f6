import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
import math


class Net(tf.keras.Model):
    def call(self, x):
        return x


net = Net()
optim = tf.keras.optimizers.SGD(learning_rate=0.01 * hvd.size())
optim = hvd.DistributedOptimizer(optim)
net.compile(optimizer=optim, loss='mse')
callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
net.fit(x, y, epochs=int(math.ceil(3 / hvd.size())), callbacks=callbacks, verbose=1 if hvd.rank() == 0 else 0)
if hvd.rank() == 0:
    net.save_weights('net.h5')
