import tensorflow as tf

with tf.GradientTape() as tape:  # record
    loss = compute()
grads = tape.gradient(loss, variables)

with tf.GradientTape(persistent=True) as t1, tf.GradientTape() as t2:
    y = f(x)
    g = t1.gradient(y, x)
h = t2.gradient(y, x)

with open('log.txt') as log:
    log.write('done')
