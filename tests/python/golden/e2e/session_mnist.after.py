"""Softmax regression on MNIST with the TF1 Session API (single GPU)."""
import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()
import numpy as np

tf.disable_v2_behavior()

(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
x_train = x_train.reshape(-1, 784).astype(np.float32) / 255.0

x = tf.placeholder(tf.float32, [None, 784])
y = tf.placeholder(tf.int64, [None])
w = tf.Variable(tf.zeros([784, 10]))
b = tf.Variable(tf.zeros([10]))
logits = tf.matmul(x, w) + b
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))

global_step = tf.train.get_or_create_global_step()
lr = tf.train.exponential_decay(0.1 * hvd.size(), global_step, 1000, 0.96)
optimizer = tf.train.GradientDescentOptimizer(lr)
optimizer = hvd.DistributedOptimizer(optimizer)
train_op = optimizer.minimize(loss, global_step=global_step)
init = tf.global_variables_initializer()
saver = tf.train.Saver()

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
with tf.Session(config=config) as sess:
    sess.run(init)
    sess.run(hvd.broadcast_global_variables(root_rank=0))
    for step in range(1000):
        idx = np.random.randint(0, len(x_train), 100)
        _, l = sess.run([train_op, loss], feed_dict={x: x_train[idx], y: y_train[idx]})
        if step % 100 == 0:
            if hvd.rank() == 0:
                print('step', step, 'loss', l)
    path = None
    if hvd.rank() == 0:
        path = saver.save(sess, '/tmp/model.ckpt')
