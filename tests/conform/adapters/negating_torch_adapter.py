"""A deliberately wrong PyTorch adapter (tests/conform/conform_torch_test.cpp): every
torch.autograd.grad the exported programs call returns the negated gradients, so every rd, and
every gradient, has the wrong sign. adlang conform must catch it and shrink a counterexample."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "conform", "adapters"))
import torch
import adapter_protocol

_grad = torch.autograd.grad


def _negated_grad(*args, **kwargs):
    return tuple(None if g is None else -g for g in _grad(*args, **kwargs))


def _prepare(namespace):
    namespace["torch"] = _Torch()


class _Autograd:
    grad = staticmethod(_negated_grad)


class _Torch:
    """torch, with torch.autograd.grad negated."""
    autograd = _Autograd()

    def __getattr__(self, name):
        return getattr(torch, name)


torch.set_num_threads(1)
adapter_protocol.serve("negating torch " + torch.__version__, "torch", _prepare)
