import tensorflow as tf

def main():
	model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
	if True:
		model.save('m.h5')
