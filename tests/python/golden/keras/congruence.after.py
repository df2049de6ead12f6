import tensorflow as tf
import horovod.tensorflow.keras as hvd
hvd.init()
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
if gpus:
    tf.config.experimental.set_visible_devices(gpus[hvd.local_rank()], 'GPU')


class Trainer:
    """Nothing here is rewritten but the optimizer in the method."""

    def __init__(self):
        self.opt = None

    async def build(self):
        opt = tf.keras.optimizers.Adam(0.1 * hvd.size())
        opt = hvd.DistributedOptimizer(opt)
        return opt


def f(xs):
    while xs:
        try:
            xs.pop()
        except IndexError as e:
            raise ValueError("empty") from e
        finally:
            pass
    else:
        return [x for x in xs if x], {k: v for k, v in xs}, lambda: xs
    match xs:
        case [1, *rest]:
            model.save('m.h5')
        case {"a": 1, **kw}:
            pass
        case Point(x=0) | None:
            pass
        case _:
            del xs
