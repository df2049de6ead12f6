import tensorflow as tf

dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1000).batch(32)
for images, labels in dataset.take(steps):
    pass
for images, labels in dataset.take(count=10000):
    pass
other = [1, 2].take(5)
