import tensorflow.compat.v1 as tf
import horovod.tensorflow as hvd
hvd.init()

saver = tf.train.Saver(max_to_keep=3)
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(hvd.local_rank())
with tf.Session(config=config) as sess:
    if hvd.rank() == 0:
        saver.save(sess, 'model.ckpt')
    path = None
    if hvd.rank() == 0:
        path = saver.save(sess, 'model.ckpt', global_step=step)
    if hvd.rank() == 0:
        print('saved to', path)
