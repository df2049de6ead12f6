import tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
import config
from tqdm import tqdm

for step in range(config.iterations_per_epoch // hvd.size()):
    pass
for step in tqdm(range(config.iterations_per_epoch // hvd.size())):
    pass
for step in range(config.epochs):
    pass
