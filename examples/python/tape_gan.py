"""A small GAN trained with tf.GradientTape: two models, two optimizers (single GPU)."""
import tensorflow as tf

NOISE_DIM = 64
BATCH_SIZE = 256

(train_images, _), _ = tf.keras.datasets.mnist.load_data()
train_images = (train_images.reshape(-1, 784).astype('float32') - 127.5) / 127.5
dataset = tf.data.Dataset.from_tensor_slices(train_images).shuffle(60000).batch(BATCH_SIZE)

generator = tf.keras.Sequential([tf.keras.layers.Dense(784, activation='tanh', input_shape=(NOISE_DIM,))])
discriminator = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(784,))])

gen_opt = tf.keras.optimizers.Adam(1e-4)
disc_opt = tf.keras.optimizers.Adam(learning_rate=1e-4)
checkpoint = tf.train.Checkpoint(gen_opt=gen_opt, disc_opt=disc_opt,
                                 generator=generator, discriminator=discriminator)
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)


@tf.function
def train_step(images):
    """One step of both networks."""
    noise = tf.random.normal([BATCH_SIZE, NOISE_DIM])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        fake = generator(noise, training=True)
        real_out = discriminator(images, training=True)
        fake_out = discriminator(fake, training=True)
        gen_loss = cross_entropy(tf.ones_like(fake_out), fake_out)
        disc_loss = (cross_entropy(tf.ones_like(real_out), real_out)
                     + cross_entropy(tf.zeros_like(fake_out), fake_out))
    gen_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
    disc_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    gen_opt.apply_gradients(zip(gen_grads, generator.trainable_variables))
    disc_opt.apply_gradients(grads_and_vars=zip(disc_grads, discriminator.trainable_variables))
    return gen_loss, disc_loss


def train(epochs):
    for epoch in range(epochs):
        for batch, images in enumerate(dataset.take(10000)):
            gen_loss, disc_loss = train_step(images)
            if batch % 100 == 0:
                print('epoch', epoch, 'batch', batch, 'gen', float(gen_loss))  # progress
        path = checkpoint.save('./ckpt/gan')
        tf.print('saved', path)


if __name__ == '__main__':
    train(50)
