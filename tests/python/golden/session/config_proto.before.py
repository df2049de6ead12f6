import tensorflow.compat.v1 as tf

cfg = tf.ConfigProto(allow_soft_placement=True)
with tf.Session(config=cfg) as sess:
    pass
with tf.Session() as sess2:
    pass
