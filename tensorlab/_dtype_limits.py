"""``finfo`` and ``iinfo``: the limits of a dtype, as torch reports them.

Numerically careful code asks them instead of hard-coding numbers: ``finfo(x.dtype).eps`` (the gap
between 1 and the next float: the smallest relative change a float can show) guards a division,
``finfo(dtype).min`` is a "minus infinity" that stays finite in a softmax mask, ``iinfo(int8).max``
is where an integer wraps round. The numbers are NumPy's ``np.finfo`` / ``np.iinfo``; bfloat16,
which NumPy lacks, is described by its format (8 exponent bits like float32, 7 mantissa bits).
"""

from __future__ import annotations

import numpy as np

from ._dtype import bfloat16, bool_, dtype, get_default_dtype

__all__ = ["finfo", "iinfo"]


class finfo:  # noqa: N801 - torch's name
    """Limits of a floating dtype: bits, eps, max, min, tiny (= smallest_normal), resolution."""

    def __init__(self, type: dtype | None = None) -> None:  # noqa: A002 - torch's argument name
        chosen = get_default_dtype() if type is None else type
        if not isinstance(chosen, dtype):
            raise TypeError(f"finfo(): argument 'type' (position 1) must be torch.dtype, not {_type_name(chosen)}")
        if not chosen.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'")
        if chosen is bfloat16:
            self.bits, self.eps, self.max, self.tiny, self.resolution = 16, 2.0**-7, (2 - 2.0**-7) * 2.0**127, 2.0**-126, 0.01
        else:
            info = np.finfo(chosen.numpy)
            self.bits, self.eps, self.max, self.tiny = int(info.bits), float(info.eps), float(info.max), float(info.tiny)
            self.resolution = 10.0 ** -int(info.precision)  # torch: a power of ten, not NumPy's rounded float16
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = chosen.name

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:  # noqa: N801 - torch's name
    """Limits of an integer dtype: bits, max, min."""

    def __init__(self, type: dtype) -> None:  # noqa: A002
        if not isinstance(type, dtype):
            raise TypeError(f"iinfo(): argument 'type' (position 1) must be torch.dtype, not {_type_name(type)}")
        if type is bool_:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        info = np.iinfo(type.numpy)
        self.bits, self.max, self.min, self.dtype = int(info.bits), int(info.max), int(info.min), type.name

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


def _type_name(value: object) -> str:
    return value.__class__.__name__
