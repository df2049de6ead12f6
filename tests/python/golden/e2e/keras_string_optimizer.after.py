#!/usr/bin/env python
# Fashion-MNIST with Keras, the optimizer given by name (single GPU).
import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
from tensorflow import keras

fashion = keras.datasets.fashion_mnist
(train_x, train_y), (test_x, test_y) = fashion.load_data()

model = keras.Sequential([
    keras.layers.Flatten(input_shape=(28, 28)),
    keras.layers.Dense(128, activation='relu'),
    keras.layers.Dense(10),
])

optim = tf.keras.optimizers.Adam(learning_rate=0.001 * hvd.size())
optim = hvd.DistributedOptimizer(optim)
model.compile(optimizer=optim,
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
model.fit(train_x, train_y, epochs=10, steps_per_epoch=1875 // hvd.size(), callbacks=callbacks, verbose=1 if hvd.rank() == 0 else 0)  # one pass per epoch

test_loss, test_acc = model.evaluate(test_x, test_y, verbose=2)
if hvd.rank() == 0:
    print('\nTest accuracy:', test_acc)
