import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')

dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1000).batch(32)
for images, labels in dataset.take(steps // hvd.size()):
    pass
for images, labels in dataset.take(count=10000 // hvd.size()):
    pass
other = [1, 2].take(5)
