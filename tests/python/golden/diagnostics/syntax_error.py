import tensorflow as tf

def f(:
    pass
