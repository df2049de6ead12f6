import os, tensorflow as tf
import horovod.tensorflow as hvd
hvd.init()
