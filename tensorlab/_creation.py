"""Factories: tensor, zeros, ones, arange, ... and their ``*_like`` forms.

``tensor(data)`` infers the dtype like torch: bools -> bool, ints -> int64, floats -> the default
float (float32; NumPy would pick float64). ``from_numpy`` and ``as_tensor`` share memory with a
NumPy array when they can; ``tensor`` always copies.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _dtype
from ._device import check_device
from ._dtype import dtype as DType
from ._dtype import from_numpy_dtype, get_default_dtype, to_dtype
from ._storage import Storage
from ._tensor import Size, Tensor, require_tensors
from .ops.copy import preserve_format
from .ops.layouts import int_sizes


def _shape_arg(size: tuple) -> tuple[int, ...]:
    """Accept ``zeros(2, 3)``, ``zeros((2, 3))`` and ``zeros([2, 3])``; ``zeros()`` is torch's TypeError."""
    if not size:
        raise TypeError('missing 1 required positional arguments: "size"')
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    shape = int_sizes(size)  # 2.5 is torch's TypeError, not a silent 2
    if any(s < 0 for s in shape):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(shape)}: {list(shape)}")
    return shape


def _finish(t: Tensor, requires_grad: bool) -> Tensor:
    if requires_grad:
        if not t.dtype.is_floating_point:  # torch's factories word it with a capital "Only"
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_(True)
    return t


def _infer_dtype(data: Any) -> DType:
    """torch's inference: Python floats -> the default float, ints -> int64, bools -> bool; NumPy
    scalars, arrays and tensors keep their own dtype; mixed items promote (``[np.float64(1), 2.0]``
    -> float64)."""
    found = None
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, Tensor):
            item_dtype = item.dtype
        elif isinstance(item, (np.ndarray, np.generic)):  # before float: np.float64 is a float
            item_dtype = from_numpy_dtype(item.dtype)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
            continue
        elif isinstance(item, bool):
            item_dtype = _dtype.bool_
        elif isinstance(item, int):
            item_dtype = _dtype.int64
        elif isinstance(item, float):
            item_dtype = get_default_dtype()
        elif isinstance(item, str):
            raise TypeError(f"new(): invalid data type '{type(item).__name__}'")
        else:
            raise RuntimeError(f"Could not infer dtype of {type(item).__name__}")
        found = item_dtype if found is None else _dtype.promote_types(found, item_dtype)
    return found or get_default_dtype()


def _checked_integers(nested: Any, target: DType) -> np.ndarray:
    """Numbers as an integer dtype, refusing (as torch does) those that do not fit it.

    Only Python ints that fit int64 are accepted at all; negative ints wrap into uint8 (-1 -> 255,
    two's complement), but 300 or -1.5 do not fit uint8, and 2**40 does not fit int32.
    """
    values = np.array(nested)
    if values.dtype == object or values.dtype == np.uint64:  # an int beyond int64
        raise ValueError("Overflow when unpacking long long")
    if values.size:
        limits = np.iinfo(target.numpy)
        lowest = -limits.max if limits.min == 0 and values.dtype.kind == "i" else limits.min
        if values.min() < lowest or values.max() > limits.max:
            raise RuntimeError(f"value cannot be converted to type {target.name} without overflow")
    return values.astype(target.numpy)


def _check_rectangular(data: Any) -> None:
    """Nested lists must form a box: torch names the first dim where a length differs."""
    if not isinstance(data, (list, tuple)):
        return
    level = [data]
    dim = 0
    while level:
        sequences = [isinstance(item, (list, tuple)) for item in level]
        if not any(sequences):
            return
        if not all(sequences):
            raise TypeError("not a sequence")
        length = len(level[0])
        for item in level:
            if len(item) != length:
                raise ValueError(f"expected sequence of length {length} at dim {dim} (got {len(item)})")
        level = [child for item in level for child in item]
        dim += 1


def _to_nested(data: Any) -> Any:
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, (list, tuple)):
        return [_to_nested(d) for d in data]
    return data


def tensor(data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """A new tensor holding a copy of ``data`` (nested lists, numbers, NumPy arrays, tensors)."""
    check_device(device)
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
            "or sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
    if dtype is not None:
        target = to_dtype(dtype)
    elif isinstance(data, np.ndarray):
        target = from_numpy_dtype(data.dtype)
    elif isinstance(data, Tensor):
        target = data.dtype
    else:
        target = _infer_dtype(data)
    _check_rectangular(data)
    nested = _to_nested(data)
    try:
        if target.category == _dtype.INTEGER and not isinstance(data, np.ndarray):
            array = _checked_integers(nested, target)
        else:
            array = np.array(nested, dtype=target.numpy)
    except ValueError as e:
        if "Overflow" in str(e):
            raise
        raise ValueError(f"expected sequence of equal-length lists: {e}") from None
    return _finish(Tensor._from_array(array, target), requires_grad)


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """Like ``tensor``, but shares memory with a tensor or NumPy array when the dtype already fits."""
    check_device(device)
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(to_dtype(dtype))
    if isinstance(data, np.ndarray) and (dtype is None or to_dtype(dtype).numpy == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor that *shares* the array's memory: writes through either are seen by both."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    target = from_numpy_dtype(array.dtype)
    if any(s % array.itemsize for s in array.strides) or any(s < 0 for s in array.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative "
            "strides are not currently supported. (You can probably work around this by making a "
            "copy of your array  with array.copy().) "
        )
    if not array.flags.writeable:
        warnings.warn(
            "The given NumPy array is not writable, and PyTorch does not support non-writable "
            "tensors. This means writing to this tensor will result in undefined behavior.",
            UserWarning,
            stacklevel=2,
        )
    # The storage starts at the array's first element and runs to its last reachable one,
    # so, as in torch, storage_offset() is 0 and the strides are the array's (in elements).
    item = array.itemsize
    strides = tuple(s // item for s in array.strides)
    span = 0 if array.size == 0 else 1 + sum((n - 1) * s for n, s in zip(array.shape, strides, strict=True))
    flat = np.lib.stride_tricks.as_strided(array, shape=(span,), strides=(item,), writeable=array.flags.writeable)
    t = Tensor._from_array(np.zeros(0, target.numpy), target)
    t._storage = Storage(flat)
    return t._alias(array.shape, strides, 0)


def _filled(shape: tuple, value: Any, dtype: Any, requires_grad: bool) -> Tensor:
    target = to_dtype(dtype) if dtype is not None else get_default_dtype()
    return _finish(Tensor._from_array(np.full(shape, value, dtype=target.numpy), target), requires_grad)


def zeros(*size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    return _filled(_shape_arg(size), 0, dtype, requires_grad)


def ones(*size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    return _filled(_shape_arg(size), 1, dtype, requires_grad)


def empty(*size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """Uninitialised in torch; tensorlab fills with zeros so results are reproducible."""
    check_device(device)
    return _filled(_shape_arg(size), 0, dtype, requires_grad)


def full(size: Sequence[int], fill_value: Any, *, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    if dtype is None:
        dtype = _dtype.scalar_dtype(fill_value.item() if isinstance(fill_value, Tensor) else fill_value)
    return _filled(_shape_arg((size,)), fill_value, dtype, requires_grad)


def _filled_like(name: str, x: Tensor, value: Any, dtype: Any, requires_grad: bool) -> Tensor:
    """A new tensor shaped like x and laid out like x (a transposed x gives transposed strides),
    which is torch's default ``memory_format=torch.preserve_format``."""
    require_tensors(name, ("input", x))
    target = to_dtype(dtype) if dtype is not None else x.dtype
    values = np.full_like(x._data, value, dtype=target.numpy, order="K")
    return _finish(preserve_format(Tensor._from_array(values, target), x), requires_grad)


def zeros_like(x: Tensor, *, dtype: Any = None, device: Any = None, requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    check_device(device)
    return _filled_like("zeros_like", x, 0, dtype, requires_grad)


def ones_like(x: Tensor, *, dtype: Any = None, device: Any = None, requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    check_device(device)
    return _filled_like("ones_like", x, 1, dtype, requires_grad)


def empty_like(x: Tensor, *, dtype: Any = None, device: Any = None, requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """Uninitialised in torch; zeros here, so results are reproducible."""
    check_device(device)
    return _filled_like("empty_like", x, 0, dtype, requires_grad)


def full_like(x: Tensor, fill_value: Any, *, dtype: Any = None, device: Any = None, requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    check_device(device)
    return _filled_like("full_like", x, fill_value, dtype, requires_grad)


def arange(start: Any, end: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """[start, end) in steps; integer arguments give int64, any float gives the default float."""
    check_device(device)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) / step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    if dtype is None:
        values = (start, end, step)
        dtype = get_default_dtype() if any(isinstance(v, float) for v in values) else _dtype.int64
    target = to_dtype(dtype)
    count = math.ceil((end - start) / step)
    array = (start + step * np.arange(count, dtype=np.float64)) if target.is_floating_point else np.arange(start, end, step)
    return _finish(Tensor._from_array(np.asarray(array).astype(target.numpy), target), requires_grad)


def linspace(start: float, end: float, steps: int, *, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    target = to_dtype(dtype) if dtype is not None else get_default_dtype()
    if steps < 0:
        raise RuntimeError("linspace(): number of steps must be non-negative")
    # torch fills the first half from start and the second half from end, for symmetry.
    if steps == 1:
        return _finish(Tensor._from_array(np.array([start], dtype=target.numpy), target), requires_grad)
    step = (end - start) / (steps - 1) if steps > 1 else 0.0
    index = np.arange(steps, dtype=np.float64)
    halfway = steps // 2
    values = np.where(index < halfway, start + step * index, end - step * (steps - 1 - index))
    if not target.is_floating_point:
        values = np.trunc(values)
    return _finish(Tensor._from_array(values.astype(target.numpy), target), requires_grad)


def logspace(start: float, end: float, steps: int, base: float = 10.0, *, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """base ** linspace(start, end, steps): points evenly spaced on a log scale (learning-rate sweeps)."""
    check_device(device)
    target = to_dtype(dtype) if dtype is not None else get_default_dtype()
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    exponents = linspace(start, end, steps, dtype=_dtype.float64)._data
    values = np.power(float(base), exponents)
    if not target.is_floating_point:
        values = np.trunc(values)
    return _finish(Tensor._from_array(values.astype(target.numpy), target), requires_grad)


def eye(n: int, m: int | None = None, *, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    check_device(device)
    target = to_dtype(dtype) if dtype is not None else get_default_dtype()
    for name, size in (("n", n), ("m", m)):
        if size is not None and size < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    return _finish(Tensor._from_array(np.eye(n, m if m is not None else n, dtype=target.numpy), target), requires_grad)


def legacy_tensor_constructor(*args: Any, legacy_dtype: DType | None = None, device: Any = None, **kwargs: Any) -> Tensor:
    """``Tensor([1, 2])``, ``Tensor(2, 3)``, ``LongTensor([0, 1])``: torch's legacy constructors.

    Data (a sequence or array) is copied into ``legacy_dtype`` (the default float for ``Tensor``);
    ints or a Size are a shape (uninitialised in torch; zeros here, like ``empty``); a tensor is
    returned as it is, when its dtype is the constructor's. No other keyword than ``device``.
    """
    target = legacy_dtype or get_default_dtype()
    name = f"tensorlab.{target.scalar_type}Tensor" if legacy_dtype else "tensorlab.Tensor"
    if kwargs:
        got = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        raise TypeError(f"new() received an invalid combination of arguments - got ({got}), but expected one of: (*, device), (Storage), (Tensor other), (tuple of ints size, *, device), (object data, *, device)")
    if device is not None and str(device).split(":")[0] != "cpu":
        raise RuntimeError(f"legacy constructor expects device type: cpu but device type: {str(device).split(':')[0]} was passed")
    if not args:
        return zeros(0, dtype=target)
    first = args[0]
    if len(args) == 1 and isinstance(first, Tensor):
        if legacy_dtype is not None and first.dtype is not legacy_dtype:
            raise TypeError(f"expected {name} (got tensorlab.{first.dtype.scalar_type}Tensor)")
        return first
    if len(args) == 1 and isinstance(first, (list, tuple, np.ndarray)) and not isinstance(first, Size):
        return tensor(first, dtype=target)
    if all(isinstance(a, int) and not isinstance(a, bool) for a in args) or (len(args) == 1 and isinstance(first, Size)):
        return zeros(*args, dtype=target)
    if len(args) == 1:
        if isinstance(first, str):
            raise TypeError("new(): invalid data type 'str'")
        raise TypeError(f"new(): data must be a sequence (got {type(first).__name__})")
    bad = next(a for a in args if not isinstance(a, int))
    raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {args.index(bad) + 1} with error \"type must be tuple of ints,but got {type(bad).__name__}\"")


def _rebuild_tensor(array: np.ndarray, dtype_name: str, requires_grad: bool) -> Tensor:
    """Unpickling: rebuild a tensor from its values."""
    return _finish(Tensor._from_array(array, _dtype._BY_NAME[dtype_name]), requires_grad)
