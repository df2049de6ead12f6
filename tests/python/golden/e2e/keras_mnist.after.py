"""Train a small convolutional network on MNIST with Keras (single GPU)."""
import os

import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')
import math

# Use only the first GPU.

BATCH_SIZE = 128
EPOCHS = 12


def build_model():
    return tf.keras.Sequential([
        tf.keras.layers.Conv2D(32, [3, 3], activation='relu', input_shape=(28, 28, 1)),
        tf.keras.layers.MaxPooling2D(pool_size=(2, 2)),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(128, activation='relu'),
        tf.keras.layers.Dense(10, activation='softmax'),
    ])


(x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
x_train = x_train[..., None] / 255.0
x_test = x_test[..., None] / 255.0

model = build_model()
lr_schedule = tf.keras.optimizers.schedules.ExponentialDecay(
    initial_learning_rate=0.01 * hvd.size(), decay_steps=1000, decay_rate=0.9)
opt = tf.keras.optimizers.SGD(learning_rate=lr_schedule, momentum=0.9)
opt = hvd.DistributedOptimizer(opt)
model.compile(loss='sparse_categorical_crossentropy', optimizer=opt, metrics=['accuracy'])
if hvd.rank() == 0:
    model.summary()

callbacks = [
    tf.keras.callbacks.ModelCheckpoint('./checkpoint-{epoch}.h5'),
    tf.keras.callbacks.EarlyStopping(patience=2),
]

callbacks_1 = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
callbacks_1 += [callback for callback in callbacks if hvd.rank() == 0 or not isinstance(callback, (tf.keras.callbacks.ModelCheckpoint, tf.keras.callbacks.TensorBoard))]
history = model.fit(x_train, y_train, batch_size=BATCH_SIZE, epochs=int(math.ceil(EPOCHS / hvd.size())),
                    callbacks=callbacks_1, validation_data=(x_test, y_test), verbose=1 if hvd.rank() == 0 else 0)

score = model.evaluate(x_test, y_test, verbose=0)
if hvd.rank() == 0:
    print('Test loss:', score[0])
if hvd.rank() == 0:
    print('Test accuracy:', score[1])
if hvd.rank() == 0:
    model.save('mnist_model.h5')
