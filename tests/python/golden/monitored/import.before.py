import tensorflow.compat.v1 as tf
