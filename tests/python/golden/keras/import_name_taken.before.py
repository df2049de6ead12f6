import tensorflow as tf

hvd = 'a name the script already uses'
gpus = 4
