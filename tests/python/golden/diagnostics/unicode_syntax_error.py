import tensorflow as tf
x = "été" + (
