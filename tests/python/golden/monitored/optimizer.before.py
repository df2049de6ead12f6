import tensorflow.compat.v1 as tf

opt = tf.train.AdagradOptimizer(0.01 * 2)
train_op = opt.minimize(loss)
print('built')
