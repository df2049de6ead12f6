import tensorflow.compat.v1 as tf

saver = tf.train.Saver(max_to_keep=3)
with tf.Session() as sess:
    saver.save(sess, 'model.ckpt')
    path = saver.save(sess, 'model.ckpt', global_step=step)
    print('saved to', path)
