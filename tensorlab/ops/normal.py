"""Samples from a normal distribution: ``normal`` (four overloads) and ``Tensor.normal_``.

``normal(mean, std)`` draws one sample per element, ``mean + std * N(0, 1)``; mean and std can
be tensors (broadcast against each other) or numbers, and with two numbers a ``size`` is needed.
The result's dtype is the promoted dtype of the tensor arguments and must be floating point.

The gradient is zero, in torch too: the sample is treated as a constant, not as a function of
mean and std (the "reparameterization trick", ``mean + std * randn_like(std)``, is what gives
gradients; :func:`normal` only records the node so that the graph looks like torch's).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _creation
from .._device import check_device
from .._dtype import dtype, get_default_dtype, result_type, to_dtype
from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from .broadcasting import broadcast_pair
from .inplace import inplace
from .out import write_into
from .promotion import _not_implemented_for

__all__ = ["normal"]

_OVERLOADS = (
    " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, Tensor out = None, "
    "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)\n"
)


def _check_std(std: Any) -> None:
    if isinstance(std, Tensor):
        if std.numel() and not (std._data >= 0).all():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def _require_float(dt: dtype) -> None:
    if not dt.is_floating_point:
        raise _not_implemented_for("normal_kernel_cpu", dt)


def _sample(mean: Any, std: Any, shape: tuple, dt: dtype, generator: Any, contiguous: bool = True) -> np.ndarray:
    """One draw per element of ``shape``, in dtype ``dt``, as torch computes it: with numbers,
    N(mean, std^2) directly; with a std tensor, N(0, 1) then ``* std + mean``; with only a mean
    tensor, N(0, std^2) then ``+ mean`` (each step rounded in ``dt``)."""
    # imported here: _generator imports _tensor, which (through Tensor's methods) imports this module
    from .. import _distributions
    from .._generator import generator_or_default

    gen = generator_or_default(generator, "normal")
    n, target = int(np.prod(shape)), dt.numpy
    m = mean._data.astype(target) if isinstance(mean, Tensor) else mean
    if isinstance(std, Tensor):
        z = _distributions.normal(gen, n, target).reshape(shape)
        return (z * std._data.astype(target) + m).astype(target)
    z = _distributions.normal(gen, n, target, 0.0 if isinstance(mean, Tensor) else mean, std, contiguous).reshape(shape)
    return (z + m).astype(target) if isinstance(mean, Tensor) else z


class Normal(Function):
    """z ~ N(mean, std^2), elementwise. The sample counts as a constant: dz/dmean = dz/dstd = 0."""

    backward_name = "NormalBackward3"

    @staticmethod
    def forward(ctx: FunctionCtx, mean: Any, std: Any, generator: Any) -> Tensor:
        _check_std(std)
        shapes = [tuple(t.shape) for t in (mean, std) if isinstance(t, Tensor)]
        shape = broadcast_pair(*shapes) if len(shapes) == 2 else shapes[0]
        dt = result_type(*[t for t in (mean, std) if isinstance(t, Tensor)])
        _require_float(dt)
        ctx.shapes = [tuple(t.shape) if isinstance(t, Tensor) else None for t in (mean, std)]
        return Tensor._from_array(_sample(mean, std, shape, dt, generator), dt)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        zeros = [None if shape is None else grad.new_zeros(shape) for shape in ctx.shapes]
        return zeros[0], zeros[1], None


def normal(mean: Any = None, std: Any = 1.0, size: Any = None, *, generator: Any = None, out: Any = None,
           dtype: Any = None, layout: Any = None, device: Any = None, pin_memory: bool = False,
           requires_grad: bool = False) -> Tensor:
    """``normal(mean_tensor, std_tensor)``, ``normal(mean_tensor, std=1.0)``, ``normal(mean, std_tensor)``
    or ``normal(mean, std, size)``; see the module docstring."""
    tensors = isinstance(mean, Tensor), isinstance(std, Tensor)
    if any(tensors) and size is None:
        node = {(True, True): "NormalBackward3", (True, False): "NormalBackward1", (False, True): "NormalBackward2"}[tensors]
        result = Normal.apply_as(node, mean, std, generator)
    elif not any(tensors) and size is not None and isinstance(mean, (int, float)) and isinstance(std, (int, float)):
        check_device(device)
        _check_std(std)
        dt = to_dtype(dtype) if dtype is not None else get_default_dtype()
        _require_float(dt)
        shape = _creation._shape_arg((size,))
        result = _creation._finish(Tensor._from_array(_sample(mean, std, shape, dt, generator), dt), requires_grad)
    else:
        given = [type(a).__name__ if not isinstance(a, Tensor) else "Tensor" for a in (mean, std, size) if a is not None]
        raise TypeError(f"normal() received an invalid combination of arguments - got ({', '.join(given)}), but expected one of:\n{_OVERLOADS}")
    return result if out is None else write_into("normal", result, out)


class NormalFill(Function):
    """self's values replaced by samples of N(mean, std^2): the old values get gradient 0."""

    backward_name = "NormalBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, mean: float, std: float, generator: Any) -> Tensor:
        _check_std(std)
        _require_float(x.dtype)
        from .sampling import (
            in_memory_order,  # sampling's module imports Tensor's methods, which import this one
        )

        draws = _sample(mean, std, (x.numel(),), x.dtype, generator, contiguous=x.is_contiguous())
        return Tensor._from_array(in_memory_order(x, draws), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad * 0, None, None, None


def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *, generator: Any = None) -> Tensor:
    """Fill self with samples of N(mean, std^2), in place (how ``nn.init.normal_`` fills weights)."""
    return inplace(NormalFill.apply, self, mean, std, generator)
