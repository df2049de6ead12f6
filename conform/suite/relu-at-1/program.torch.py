# A random program of adlang conform, exported by adlang to PyTorch (float64 tensors).
# Predicates: total (the conventional comparisons).

import torch


def _real(x):
    return torch.tensor(float(x), dtype=torch.float64)


def _truth(b):
    return bool(b)


def _point(v):
    """x in M.rd_L(x. N): a fresh node per real of L, so that only N's uses of x count."""
    if isinstance(v, tuple):
        return tuple(_point(part) for part in v)
    return v.clone() if v.requires_grad else v.detach().clone().requires_grad_(True)


def _rd(out, x, w, create_graph):
    """w.rd(x. out): torch.autograd.grad of out at x along the cotangent w."""
    xs = _flat(x)
    pairs = [(o, c) for o, c in zip(_flat(out), _flat(w)) if o.requires_grad]
    grads = [None] * len(xs)
    if pairs and xs:
        grads = list(torch.autograd.grad([o for o, _ in pairs], xs,
                                         grad_outputs=[c for _, c in pairs],
                                         create_graph=create_graph, allow_unused=True))
    zero = torch.zeros((), dtype=torch.float64)
    return _rebuild(x, [zero if g is None else g for g in grads])

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
    return torch.sin(x)


def op_cos(x):
    return torch.cos(x)


def op_exp(x):
    return torch.exp(x)


def op_log(x):
    return torch.log(x)


def op_sqrt(x):
    return torch.sqrt(x)


def op_tanh(x):
    return torch.tanh(x)


def op_sigmoid(x):
    return torch.sigmoid(x)


def op_floor(x):
    return torch.floor(x)


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


# relu(x: real): real
def f_relu_1(v_x_1):
    v_g_1 = _lt((v_x_1, _real(0.0)))
    if v_g_1:
        v_if_1 = _real(0.0)
    else:
        v_if_1 = v_x_1
    return v_if_1


# main(x: real): real * real
def main(v_x_1):
    v_c_1 = f_relu_1(v_x_1)
    v_w_1 = _real(1.0)
    v_l_1 = v_x_1
    v_y_1 = _point(v_l_1)
    v_c_2 = f_relu_1(v_y_1)
    v_rd_1 = _rd(v_c_2, v_y_1, v_w_1, False)
    return (v_c_1, v_rd_1)


# gradient(w_1: real * real, x: real): real
def gradient(v_w_1_1, v_x_1):
    v_w_1 = v_w_1_1
    v_l_1 = v_x_1
    v_x_2 = _point(v_l_1)
    v_c_1 = f_relu_1(v_x_2)
    v_w_2 = _real(1.0)
    v_l_2 = v_x_2
    v_y_1 = _point(v_l_2)
    v_c_2 = f_relu_1(v_y_1)
    v_rd_1 = _rd(v_c_2, v_y_1, v_w_2, True)
    v_rd_2 = _rd((v_c_1, v_rd_1), v_x_2, v_w_1, False)
    return v_rd_2


if __name__ == "__main__":
    import json
    import sys
    _args = [_from_json(a) for a in json.loads(sys.argv[1] if len(sys.argv) > 1 else "[]")]
    print(json.dumps(_to_json(main(*_args))))
