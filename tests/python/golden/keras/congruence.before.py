import tensorflow as tf


class Trainer:
    """Nothing here is rewritten but the optimizer in the method."""

    def __init__(self):
        self.opt = None

    async def build(self):
        opt = tf.keras.optimizers.Adam(0.1)
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
