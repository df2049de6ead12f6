import tensorflow as tf
name = "café"
