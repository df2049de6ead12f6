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


# relu(x_1: real): real
def f_relu_1(v_x_1_1):
    v_g_1 = _lt((v_x_1_1, 0.0))
    if v_g_1:
        v_if_1 = 0.0
    else:
        v_if_1 = v_x_1_1
    return v_if_1


# relu_rd_1(q_1: real * real): real
def f_relu_rd_2_2(v_q_1_1):
    v_p_1 = v_q_1_1[0]
    v_a_2_1 = v_p_1
    v_p_2 = v_q_1_1[1]
    v_w_4_1 = v_p_2
    v_x_1_1 = v_a_2_1
    v_g_1 = _lt((v_x_1_1, 0.0))
    if v_g_1:
        v_x_3_1 = v_a_2_1
        v_if_1 = 0.0
    else:
        v_x_2_1 = v_a_2_1
        v_if_1 = v_w_4_1
    return v_if_1


# relu_rd_2_rd_1(q_3: real^3): real * real
def f_relu_rd_2_rd_1_3(v_q_3_1):
    v_p_1 = v_q_3_1[0]
    v_a_10_1 = v_p_1
    v_p_2 = v_q_3_1[1]
    v_w_23_1 = v_p_2
    v_q_2_1 = v_a_10_1
    v_p_3 = v_q_2_1[0]
    v_a_9_1 = v_p_3
    v_a_9v_1_1 = v_a_9_1
    v_a_9_2 = v_a_9v_1_1
    v_q_2_2 = v_a_10_1
    v_a_9_3 = v_a_9v_1_1
    v_p_4 = v_q_2_2[1]
    v_w_22_1 = v_p_4
    v_a_9_4 = v_a_9v_1_1
    v_x_5_1 = v_a_9_4
    v_x_5v_2_1 = v_x_5_1
    v_x_5_2 = v_x_5v_2_1
    v_a_9_5 = v_a_9v_1_1
    v_x_5_3 = v_x_5v_2_1
    v_g_1 = _lt((v_x_5_3, 0.0))
    if v_g_1:
        v_x_11_1 = v_x_5v_2_1
        v_if_1 = 0.0
    else:
        v_x_10_1 = v_x_5v_2_1
        v_if_1 = 0.0
    v_w_30_1 = v_if_1
    v_a_9_6 = v_a_9v_1_1
    v_g_2 = _lt((v_x_5_1, 0.0))
    if v_g_2:
        v_a_12_1 = v_a_9v_1_1
        v_if_2 = 0.0
    else:
        v_a_11_1 = v_a_9v_1_1
        v_if_2 = 0.0
    v_a_13_1 = v_a_9v_1_1
    v_s_1 = v_if_2 + v_w_30_1
    v_w_29_1 = v_s_1
    v_q_2_3 = v_a_10_1
    v_p_5 = v_q_2_3[1]
    v_w_22_2 = v_p_5
    v_w_22v_1_1 = v_w_22_2
    v_w_22_3 = v_w_22v_1_1
    v_q_2_4 = v_a_10_1
    v_w_22_4 = v_w_22v_1_1
    v_x_5_4 = v_a_9_1
    v_w_22_5 = v_w_22v_1_1
    v_g_3 = _lt((v_x_5_4, 0.0))
    if v_g_3:
        v_w_26_1 = v_w_22v_1_1
        v_if_3 = 0.0
    else:
        v_w_25_1 = v_w_22v_1_1
        v_if_3 = v_w_23_1
    v_w_24_1 = v_if_3
    v_q_4_1 = v_a_10_1
    v_p_6 = v_q_4_1[1]
    v_s_1_1 = v_p_6
    v_z_2_1 = (0.0, v_w_24_1)
    v_p_7 = v_z_2_1[0]
    v_x_12_1 = v_p_7
    v_p_8 = v_z_2_1[1]
    v_x_13_1 = v_p_8
    v_q_5_1 = v_a_10_1
    v_p_9 = v_q_5_1[0]
    v_f_1_1 = v_p_9
    v_z_1_1 = (v_w_29_1, 0.0)
    v_p_10 = v_z_1_1[0]
    v_y_3_1 = v_p_10
    v_p_11 = v_z_1_1[1]
    v_y_4_1 = v_p_11
    v_s_2 = v_x_12_1 + v_y_3_1
    v_s_3 = v_x_13_1 + v_y_4_1
    return (v_s_2, v_s_3)


# main(x: real): real * real
def main(v_x_1):
    v_c_1 = f_relu_1(v_x_1)
    v_w_2_1 = 1.0
    v_v_1_1 = v_x_1
    v_y_1 = v_v_1_1
    v_a_1_1 = v_y_1
    v_c_2 = f_relu_rd_2_2((v_a_1_1, v_w_2_1))
    v_w_3_1 = v_c_2
    v_y_1_1 = v_v_1_1
    return (v_c_1, v_w_3_1)


# gradient(w_1: real * real, x: real): real
def gradient(v_w_1_1, v_x_1):
    v_w_7_1 = v_w_1_1
    v_v_3_1 = v_x_1
    v_x_4_1 = v_v_3_1
    v_c_1 = f_relu_1(v_x_4_1)
    v_a_4_1 = v_c_1
    v_a_4v_1_1 = v_a_4_1
    v_a_4_2 = v_a_4v_1_1
    v_x_4_2 = v_v_3_1
    v_a_4_3 = v_a_4v_1_1
    v_w_5_1 = 1.0
    v_v_2_1 = v_x_4_2
    v_y_1 = v_v_2_1
    v_a_3_1 = v_y_1
    v_c_2 = f_relu_rd_2_2((v_a_3_1, v_w_5_1))
    v_w_6_1 = v_c_2
    v_y_2_1 = v_v_2_1
    v_b_1_1 = v_w_6_1
    v_a_7_1 = v_a_4v_1_1
    v_p_1 = v_w_7_1[0]
    v_w_18_1 = v_p_1
    v_x_4_3 = v_v_3_1
    v_w_5_2 = 1.0
    v_v_2_2 = v_x_4_3
    v_y_2 = v_v_2_2
    v_a_3_2 = v_y_2
    v_c_3 = f_relu_rd_2_2((v_a_3_2, v_w_5_2))
    v_w_6_2 = v_c_3
    v_y_2_2 = v_v_2_2
    v_b_1_2 = v_w_6_2
    v_b_1v_1_1 = v_b_1_2
    v_b_2_1 = v_b_1v_1_1
    v_p_2 = v_w_7_1[1]
    v_w_8_1 = v_p_2
    v_x_4_4 = v_v_3_1
    v_w_5_3 = 1.0
    v_x_4_5 = v_v_3_1
    v_v_2_3 = v_x_4_5
    v_v_2v_1_1 = v_v_2_3
    v_v_2_4 = v_v_2v_1_1
    v_x_4_6 = v_v_3_1
    v_v_2_5 = v_v_2v_1_1
    v_y_3 = v_v_2_5
    v_a_3_3 = v_y_3
    v_a_3v_1_1 = v_a_3_3
    v_a_3_4 = v_a_3v_1_1
    v_v_2_6 = v_v_2v_1_1
    v_a_3_5 = v_a_3v_1_1
    v_c_4 = f_relu_rd_2_2((v_a_3_5, v_w_5_3))
    v_w_6_3 = v_c_4
    v_w_6v_2_1 = v_w_6_3
    v_w_13_1 = v_w_6v_2_1
    v_w_12_1 = v_w_8_1
    v_a_3_6 = v_a_3v_1_1
    v_a_5_1 = (v_a_3_6, v_w_5_3)
    v_c_5 = f_relu_rd_2_rd_1_3((v_a_5_1, v_w_12_1))
    v_w_14_1 = v_c_5
    v_a_6_1 = v_a_3v_1_1
    v_p_3 = v_w_14_1[0]
    v_w_11_1 = v_p_3
    v_v_2_7 = v_v_2v_1_1
    v_c_6 = f_relu_rd_2_2((v_a_3_3, v_w_5_3))
    v_w_6_4 = v_c_6
    v_v_4_1 = v_v_2v_1_1
    v_v_5_1 = v_v_2v_1_1
    v_s_1 = 0.0 + v_w_11_1
    v_w_9_1 = v_s_1
    v_x_6_1 = v_v_3_1
    v_x_4_7 = v_v_3_1
    v_a_8_1 = v_x_4_7
    v_c_7 = f_relu_rd_2_2((v_a_8_1, v_w_18_1))
    v_w_21_1 = v_c_7
    v_x_7_1 = v_v_3_1
    v_s_2 = v_w_9_1 + v_w_21_1
    return v_s_2


if __name__ == "__main__":
    import json
    import sys
    _args = [_from_json(a) for a in json.loads(sys.argv[1] if len(sys.argv) > 1 else "[]")]
    print(json.dumps(_to_json(main(*_args))))
