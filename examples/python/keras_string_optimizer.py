#!/usr/bin/env python
# Fashion-MNIST with Keras, the optimizer given by name (single GPU).
import tensorflow as tf
from tensorflow import keras

fashion = keras.datasets.fashion_mnist
(train_x, train_y), (test_x, test_y) = fashion.load_data()

model = keras.Sequential([
    keras.layers.Flatten(input_shape=(28, 28)),
    keras.layers.Dense(128, activation='relu'),
    keras.layers.Dense(10),
])

model.compile(optimizer='adam',
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

model.fit(train_x, train_y, epochs=10, steps_per_epoch=1875)  # one pass per epoch

test_loss, test_acc = model.evaluate(test_x, test_y, verbose=2)
print('\nTest accuracy:', test_acc)
