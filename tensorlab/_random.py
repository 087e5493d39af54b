"""Random factories: ``rand``, ``randn``, ``randint``, ``randperm`` and their ``_like`` forms.

Each draws from the ``generator=`` given or from the global one (:mod:`tensorlab._generator`), with
torch's CPU transforms (:mod:`tensorlab._distributions`), so ``tensorlab.manual_seed(s)`` followed
by ``randn(3, 4)`` gives torch's numbers. The seeding functions are re-exported from here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _distributions
from ._creation import _finish, _shape_arg
from ._device import check_device
from ._dtype import float64, get_default_dtype, int64, to_dtype
from ._generator import (
    Generator,
    default_generator,
    generator_or_default,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from ._tensor import Tensor

__all__ = [
    "Generator", "default_generator", "empty_int64_random", "float64", "generator_or_default", "get_rng_state", "initial_seed", "manual_seed",
    "rand", "rand_like", "randint", "randint_like", "randn", "randn_like", "randperm", "seed", "set_rng_state",
]  # fmt: skip

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
    gen = generator_or_default(generator, "rand")
    values = _distributions.uniform(gen, int(np.prod(shape)), target.numpy).reshape(shape)
    return _finish(Tensor._from_array(values, target), requires_grad)


def randn(*size: Any, dtype: Any = None, requires_grad: bool = False, generator: Any = None, device: Any = None) -> Tensor:
    """Standard normal."""
    check_device(device)
    shape = _shape_arg(size)
    target = _float(dtype, "normal_kernel_cpu", kernel_runs=0 not in shape)
    gen = generator_or_default(generator, "randn")
    values = _distributions.normal(gen, int(np.prod(shape)), target.numpy).reshape(shape)
    return _finish(Tensor._from_array(values, target), requires_grad)


def randint(low: int = 0, high: int | None = None, size: Any = None, *, dtype: Any = None, generator: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """Integers in [low, high); ``randint(high, size)`` starts at 0. int64 unless dtype is given."""
    check_device(device)
    if size is None:
        low, high, size = 0, low, high
    elif high is None:
        raise TypeError("randint() missing required argument 'size'")
    if high <= low:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    target = to_dtype(dtype) if dtype is not None else int64
    shape = _shape_arg((size,))
    gen = generator_or_default(generator, "randint")
    values = _distributions.random_from_to(gen, int(np.prod(shape)), target.numpy, int(low), int(high)).reshape(shape)
    return _finish(Tensor._from_array(values, target), requires_grad)


def randperm(n: int, *, generator: Any = None, dtype: Any = None, requires_grad: bool = False, device: Any = None) -> Tensor:
    """A random ordering of 0..n-1 (int64): what shuffling a dataset draws each epoch."""
    check_device(device)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    target = to_dtype(dtype) if dtype is not None else int64
    values = _distributions.randperm(generator_or_default(generator, "randperm"), int(n)).astype(target.numpy)
    return _finish(Tensor._from_array(values, target), requires_grad)


def rand_like(x: Tensor, *, dtype: Any = None, generator: Any = None) -> Tensor:
    return rand(tuple(x.shape), dtype=dtype or x.dtype, generator=generator)


def randn_like(x: Tensor, *, dtype: Any = None, generator: Any = None) -> Tensor:
    return randn(tuple(x.shape), dtype=dtype or x.dtype, generator=generator)


def randint_like(x: Tensor, low: int, high: int | None = None, *, dtype: Any = None, generator: Any = None) -> Tensor:
    """``randint_like(x, high)`` or ``randint_like(x, low, high)``."""
    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(x.shape), dtype=dtype or x.dtype, generator=generator)


def empty_int64_random(generator: Any = None) -> int:
    """``torch.empty((), dtype=torch.int64).random_(generator=g).item()``: one 64-bit draw mod 2^63,
    how torch's samplers and DataLoader seed themselves."""
    return int(_distributions.random_full(generator_or_default(generator, "random_"), 1, np.dtype(np.int64))[0])
