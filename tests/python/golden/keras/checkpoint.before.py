import tensorflow as tf

ckpt = tf.train.Checkpoint(model=model)
ckpt.save('/tmp/ckpt')
saved = ckpt.save('/tmp/ckpt')
ckpt.restore(saved)
