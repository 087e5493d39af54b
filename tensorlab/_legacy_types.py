"""torch's typed legacy constructors: ``LongTensor([0, 1])``, ``FloatTensor(2, 3)``, ...

Old tutorials build tensors with them, so they must exist and mean what torch means: each is a
constructor of one dtype (``LongTensor([0, 1]).dtype`` is int64), not a subclass of Tensor.
``isinstance(x, LongTensor)`` asks whether x is a tensor *of that dtype*, as in torch, and
``x.type(LongTensor)`` converts to it.
"""

from __future__ import annotations

from typing import Any

from . import _dtype
from ._creation import legacy_tensor_constructor
from ._tensor import Tensor


class TensorType(type):
    """The class of ``LongTensor`` and friends (torch's ``tensortype``): calling one makes a tensor
    of its ``dtype``; ``isinstance`` compares dtypes, since every tensor's class is Tensor."""

    dtype: _dtype.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> Tensor:
        return legacy_tensor_constructor(*args, legacy_dtype=cls.dtype, **kwargs)

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __repr__(cls) -> str:
        return f"<class 'tensorlab.{cls.__name__}'>"


def _legacy_type(d: _dtype.dtype) -> TensorType:
    return TensorType(f"{d.scalar_type}Tensor", (), {"dtype": d, "__module__": "tensorlab"})


BoolTensor = _legacy_type(_dtype.bool_)
ByteTensor = _legacy_type(_dtype.uint8)
CharTensor = _legacy_type(_dtype.int8)
ShortTensor = _legacy_type(_dtype.int16)
IntTensor = _legacy_type(_dtype.int32)
LongTensor = _legacy_type(_dtype.int64)
HalfTensor = _legacy_type(_dtype.float16)
FloatTensor = _legacy_type(_dtype.float32)
DoubleTensor = _legacy_type(_dtype.float64)

__all__ = [
    "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor",
    "IntTensor", "LongTensor", "ShortTensor",
]
