import tensorflow as tf


class Net(tf.keras.Model):
    def call(self, x):
        return x


net = Net()
net.compile(optimizer='sgd', loss='mse')
net.fit(x, y, epochs=3)
net.save_weights('net.h5')
