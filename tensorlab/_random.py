"""Random factories from one seedable generator.

``manual_seed(s)`` makes every later draw reproducible. The numbers come from NumPy's PCG64, so
they differ from torch's for the same seed; the distributions (uniform [0, 1), standard normal,
integers in [low, high)) are the same.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from ._creation import _finish, _shape_arg
from ._device import check_device
from ._dtype import get_default_dtype, int64, to_dtype
from ._generator import Generator
from ._tensor import Tensor

_generator = np.random.default_rng(0)
_seed = 0


def manual_seed(seed: int) -> np.random.Generator:
    """Reseed: the draws that follow are reproducible, but are not the numbers torch draws."""
    global _generator, _seed
    _seed = int(seed)
    _generator = np.random.default_rng(_seed)
    return _generator


def seed() -> int:
    new = secrets.randbits(63)  # fresh entropy from the operating system
    manual_seed(new)
    return new


def initial_seed() -> int:
    return _seed


_TORCH_TYPE_NAMES = {"bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int", "int64": "Long"}


def _float(dtype: Any, kernel: str, kernel_runs: bool) -> Any:
    """rand/randn draw floats only; torch has no kernel for integer dtypes (and says so when it runs
    one: rand checks its bounds always, randn's kernel is skipped for an empty shape)."""
    target = to_dtype(dtype) if dtype is not None else get_default_dtype()
    if not target.is_floating_point and kernel_runs:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_TORCH_TYPE_NAMES[target.name]}\'')
    return target


def rand(*size: Any, dtype: Any = None, requires_grad: bool = False, generator: Any = None, device: Any = None) -> Tensor:
    """Uniform on [0, 1)."""
    check_device(device)
    shape = _shape_arg(size)
    target = _float(dtype, "check_uniform_bounds", kernel_runs=True)
    values = _generator.random(shape).astype(target.numpy)
    return _finish(Tensor._from_array(values, target), requires_grad)


def randn(*size: Any, dtype: Any = None, requires_grad: bool = False, generator: Any = None, device: Any = None) -> Tensor:
    """Standard normal."""
    check_device(device)
    shape = _shape_arg(size)
    target = _float(dtype, "normal_kernel_cpu", kernel_runs=0 not in shape)
    values = _generator.standard_normal(shape).astype(target.numpy)
    return _finish(Tensor._from_array(values, target), requires_grad)


def randint(low: int, high: int | None = None, size: Any = None, *, dtype: Any = None, generator: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """Integers in [low, high); ``randint(high, size)`` starts at 0. int64 unless dtype is given."""
    check_device(device)
    if size is None:
        low, high, size = 0, low, high
    elif high is None:
        raise TypeError("randint() missing required argument 'size'")
    if high <= low:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    target = to_dtype(dtype) if dtype is not None else int64
    values = _generator.integers(low, high, _shape_arg((size,))).astype(target.numpy)
    return _finish(Tensor._from_array(values, target), requires_grad)


def _stream(generator: Any) -> np.random.Generator:
    """The NumPy stream to draw from: a tensorlab.Generator's own, else the global one."""
    return _generator if generator is None else generator._rng


def randperm(n: int, *, generator: Any = None, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    """A random ordering of 0..n-1 (int64): what shuffling a dataset draws each epoch."""
    check_device(device)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    target = to_dtype(dtype) if dtype is not None else int64
    values = _stream(generator).permutation(n).astype(target.numpy)
    return _finish(Tensor._from_array(values, target), requires_grad)


def rand_like(x: Tensor, *, dtype: Any = None) -> Tensor:
    return rand(tuple(x.shape), dtype=dtype or x.dtype)


def randn_like(x: Tensor, *, dtype: Any = None) -> Tensor:
    return randn(tuple(x.shape), dtype=dtype or x.dtype)


def randint_like(x: Tensor, low: int, high: int | None = None, *, dtype: Any = None) -> Tensor:
    """``randint_like(x, high)`` or ``randint_like(x, low, high)``."""
    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(x.shape), dtype=dtype or x.dtype)


def generator_or_default(generator: Any, function: str) -> np.random.Generator:
    """The stream a draw uses: a ``tensorlab.Generator``'s own (or the NumPy generator that
    ``manual_seed`` returns), else the global one; anything else is torch's TypeError."""
    if generator is None:
        return _generator
    if isinstance(generator, Generator):
        return generator._rng
    if isinstance(generator, np.random.Generator):
        return generator
    raise TypeError(f"{function}(): argument 'generator' must be torch.Generator, not {type(generator).__name__}")
