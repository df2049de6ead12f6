# Horovod's TF1 Keras example (keras_mnist.py) before Horovod: standalone Keras on TensorFlow 1,
# a session that only carries the GPU config, a checkpoint callback, epochs without
# steps_per_epoch.
from __future__ import print_function
import keras
from keras.datasets import mnist
import horovod.keras as hvd
hvd.init()
from keras.models import Sequential
from keras.layers import Dense, Dropout, Flatten
from keras import backend as K
import math
import tensorflow as tf

config = tf.ConfigProto()
config.gpu_options.visible_device_list = str(hvd.local_rank())
config.gpu_options.allow_growth = True
K.set_session(tf.Session(config=config))

batch_size = 128
num_classes = 10
epochs = 12

(x_train, y_train), (x_test, y_test) = mnist.load_data()
y_train = keras.utils.to_categorical(y_train, num_classes)

model = Sequential()
model.add(Flatten(input_shape=(28, 28)))
model.add(Dense(128, activation='relu'))
model.add(Dropout(0.5))
model.add(Dense(num_classes, activation='softmax'))

opt = keras.optimizers.Adadelta(1.0 * hvd.size())
opt = hvd.DistributedOptimizer(opt)

model.compile(loss=keras.losses.categorical_crossentropy,
              optimizer=opt,
              metrics=['accuracy'])

callbacks = [keras.callbacks.ModelCheckpoint('./checkpoint-{epoch}.h5')]

callbacks_1 = [hvd.callbacks.BroadcastGlobalVariablesCallback(root_rank=0)]
callbacks_1 += [callback for callback in callbacks if hvd.rank() == 0 or not isinstance(callback, (keras.callbacks.ModelCheckpoint, keras.callbacks.TensorBoard))]
model.fit(x_train, y_train,
          batch_size=batch_size,
          callbacks=callbacks_1,
          epochs=int(math.ceil(epochs / hvd.size())),
          verbose=1 if hvd.rank() == 0 else 0,
          validation_data=(x_test, y_test))
score = model.evaluate(x_test, y_test, verbose=0)
if hvd.rank() == 0:
    print('Test loss:', score[0])
