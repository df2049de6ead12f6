# TF 1.x script: a session bound by assignment, a ConfigProto of its own, init.run().
import tensorflow as tf

config_proto = tf.ConfigProto(log_device_placement=False)

a = tf.Variable(3.0)
loss = tf.square(a - 1.0)
opt = tf.train.AdamOptimizer(learning_rate=0.01)
train_op = opt.minimize(loss)
init = tf.global_variables_initializer()

sess = tf.Session(config=config_proto)
with sess.as_default():
    init.run()
    for _ in range(100):
        sess.run(train_op)
saver = tf.train.Saver()
saver.save(sess, 'model')
