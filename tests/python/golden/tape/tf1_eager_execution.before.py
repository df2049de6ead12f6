# A TensorFlow 1 script in eager mode (Horovod's TF1 eager example before Horovod): the GPU is
# pinned in the config of tf.enable_eager_execution, not by tf.config.
import tensorflow as tf

tf.enable_eager_execution()

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
opt = tf.train.RMSPropOptimizer(0.001)
dataset = tf.data.Dataset.from_tensor_slices((tf.zeros([64, 4]), tf.zeros([64], tf.int64))).batch(8)
for batch, (images, labels) in enumerate(dataset.take(20000)):
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        loss_value = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    grads = tape.gradient(loss_value, model.variables)
    opt.apply_gradients(zip(grads, model.variables), global_step=tf.train.get_or_create_global_step())
