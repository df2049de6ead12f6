# A random program of adlang conform, exported by adlang to plain Python (floats, no AD library).
# Predicates: total (the conventional comparisons).

import math


def _real(x):
    return float(x)


def _truth(b):
    return bool(b)

class Undefined(Exception):
    """The paper's bottom, raised where the exported program's meaning is undefined."""


def _flat(v):
    return [v] if not isinstance(v, tuple) else [s for part in v for s in _flat(part)]


def _rebuild(shape, scalars):
    """The value shaped as `shape` with the scalars of the list `scalars`, in order."""
    if not isinstance(shape, tuple):
        return scalars.pop(0)
    if len(shape) == 0:
        return ()
    first = _rebuild(shape[0], scalars)
    return (first, _rebuild(shape[1], scalars))


def _dot(u, v):
    us, vs = _flat(u), _flat(v)
    total = us[0] * vs[0]
    for p, q in zip(us[1:], vs[1:]):
        total = total + p * q
    return total


def _scale(c, v):
    return _rebuild(v, [c * s for s in _flat(v)])


def _json_real(x):
    x = float(x)
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return x


def _to_json(v):
    if isinstance(v, tuple):
        return [_to_json(part) for part in v]
    return _json_real(v)


def _from_json(j):
    if isinstance(j, list):
        if len(j) == 0:
            return ()
        return (_from_json(j[0]), _from_json(j[1]))
    return _real(float(j))


def op_neg(x):
    return -x


def op_add(x):
    a, b = x
    return a + b


def op_sub(x):
    a, b = x
    return a - b


def op_mul(x):
    a, b = x
    return a * b


def op_div(x):
    a, b = x
    return a / b


def op_sin(x):
    return math.sin(x)


def op_cos(x):
    return math.cos(x)


def op_exp(x):
    return math.exp(x)


def op_log(x):
    return math.log(x)


def op_sqrt(x):
    return math.sqrt(x)


def op_tanh(x):
    return math.tanh(x)


def op_sigmoid(x):
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def op_floor(x):
    return float(math.floor(x))


def op_dot(x):
    u, v = x
    return _dot(u, v)


def op_scale(x):
    c, v = x
    return _scale(c, v)


def _lt(x):
    a, b = x
    return _truth(a < b)


def _gt(x):
    a, b = x
    return _truth(a > b)


def _le(x):
    a, b = x
    return _truth(a <= b)


def _ge(x):
    a, b = x
    return _truth(a >= b)


def _eq(x):
    a, b = x
    return _truth(a == b)


# main(): real * real * (real * real)
def main():
    v_w_4_1 = 1.0
    v_v_4_1 = (0.0, 0.0)
    v_y_4_1 = v_v_4_1
    v_o_1 = op_mul((0.5, 0.5))
    v_mul_7_1 = v_o_1
    v_o_2 = op_sin(0.5)
    v_sin_4_1 = v_o_2
    v_p_1 = v_y_4_1[1]
    v_s_2_1 = v_p_1
    v_p_2 = v_y_4_1[0]
    v_f_2_1 = v_p_2
    v_o_3 = op_cos(0.5)
    v_cos_2_1 = v_o_3
    v_o_4 = op_mul((v_s_2_1, v_cos_2_1))
    v_mul_8_1 = v_o_4
    v_o_5 = op_mul((v_f_2_1, 0.5))
    v_mul_9_1 = v_o_5
    v_s_1 = v_mul_8_1 + v_mul_9_1
    v_a_7_1 = v_s_1
    v_o_6 = op_mul((v_f_2_1, 0.5))
    v_mul_10_1 = v_o_6
    v_s_2 = v_a_7_1 + v_mul_10_1
    v_a_8_1 = v_s_2
    v_o_7 = op_mul((v_w_4_1, 0.5))
    v_o_8 = op_mul((v_w_4_1, 0.5))
    v_s_3 = v_o_7 + v_o_8
    v_o_9 = op_mul((v_w_4_1, v_cos_2_1))
    v_w_2_1 = 2.0
    v_v_2_1 = (0.0, 0.0)
    v_y_3_1 = v_v_2_1
    v_o_10 = op_mul((0.5, 0.5))
    v_mul_2_1 = v_o_10
    v_o_11 = op_sin(0.5)
    v_sin_2_1 = v_o_11
    v_p_3 = v_y_3_1[1]
    v_s_1_1 = v_p_3
    v_p_4 = v_y_3_1[0]
    v_f_1_1 = v_p_4
    v_o_12 = op_cos(0.5)
    v_cos_1_1 = v_o_12
    v_o_13 = op_mul((v_s_1_1, v_cos_1_1))
    v_mul_3_1 = v_o_13
    v_o_14 = op_mul((v_f_1_1, 0.5))
    v_mul_4_1 = v_o_14
    v_s_4 = v_mul_3_1 + v_mul_4_1
    v_a_3_1 = v_s_4
    v_o_15 = op_mul((v_f_1_1, 0.5))
    v_mul_5_1 = v_o_15
    v_s_5 = v_a_3_1 + v_mul_5_1
    v_a_4_1 = v_s_5
    v_o_16 = op_mul((v_w_2_1, 0.5))
    v_o_17 = op_mul((v_w_2_1, 0.5))
    v_s_6 = v_o_16 + v_o_17
    v_o_18 = op_mul((v_w_2_1, v_cos_1_1))
    return ((v_s_3, v_o_9), (v_s_6, v_o_18))


if __name__ == "__main__":
    import json
    import sys
    _args = [_from_json(a) for a in json.loads(sys.argv[1] if len(sys.argv) > 1 else "[]")]
    print(json.dumps(_to_json(main(*_args))))
