"""``default_collate``: turn a list of samples into one batch, keeping the samples' structure.

The rule is recursive on the first sample's type: tensors are stacked along a new dim 0;
Python ints/floats/bools become a 1-d tensor (floats as float64, as torch does); NumPy arrays and
scalars become tensors first; a dict becomes a dict of batches; a tuple or list of fields becomes a
*list* of batched fields (a ``(x, y)`` sample gives ``[xs, ys]``); strings stay a list.
"""

from __future__ import annotations

import collections.abc
from typing import Any

import numpy as np

from ..._creation import as_tensor, tensor
from ..._dtype import float64
from ..._tensor import Tensor
from ...ops.join import stack

_NOT_COLLATABLE = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def _is_namedtuple(value: Any) -> bool:
    return isinstance(value, tuple) and hasattr(value, "_fields")


def default_collate(batch: list) -> Any:
    """Collate ``batch`` (a list of samples of one structure) into a batch of that structure."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(batch, 0)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in "USO":  # strings and objects have no tensor dtype
            raise TypeError(_NOT_COLLATABLE.format(elem.dtype))
        return default_collate([as_tensor(b) for b in batch])
    if isinstance(elem, np.generic):
        return as_tensor(np.array(batch))
    if isinstance(elem, float):
        return tensor(batch, dtype=float64)
    if isinstance(elem, int):  # bool included: [True, False] gives a bool tensor
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        collated = {key: default_collate([sample[key] for sample in batch]) for key in elem}
        try:
            return type(elem)(collated)  # type: ignore[call-arg]
        except TypeError:  # a mapping type that cannot be built from a dict
            return collated
    if _is_namedtuple(elem):
        return type(elem)(*(default_collate(list(field)) for field in zip(*batch, strict=True)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [default_collate(list(field)) for field in zip(*batch, strict=True)]
        if isinstance(elem, tuple):
            return fields
        try:
            return type(elem)(fields)  # type: ignore[call-arg]
        except TypeError:
            return fields
    raise TypeError(_NOT_COLLATABLE.format(type(elem)))


def default_convert(data: Any) -> Any:
    """What a loader with ``batch_size=None`` applies to each sample: NumPy arrays become tensors."""
    if isinstance(data, Tensor):
        return data
    if isinstance(data, np.ndarray):
        return data if data.dtype.kind in "USO" else as_tensor(data)
    if isinstance(data, np.generic):
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return type(data)({key: default_convert(value) for key, value in data.items()})  # type: ignore[call-arg]
    if _is_namedtuple(data):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        try:
            return type(data)([default_convert(d) for d in data])  # type: ignore[call-arg]
        except TypeError:
            return [default_convert(d) for d in data]
    return data


__all__ = ["default_collate", "default_convert"]
