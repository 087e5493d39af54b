"""``self op= other`` computed straight into self's memory, when nothing can tell the difference.

The plain in-place op (``ops.inplace.inplace``) computes ``op(self, other)`` as a new tensor
and copies it into self: two passes over memory and a temporary. An optimizer's
``p.sub_(lr * p.grad)`` on every parameter of every step pays that twice over. When no graph is
recorded and the result keeps self's dtype and shape, one ufunc with ``out=self`` gives the
same values in one pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._dtype import bool_
from .._tensor import Tensor

# ops.inplace imports this module, so it is still loading here: its functions are looked up
# when called.
from ..ops import inplace as ops_inplace
from ..ops import promotion

if TYPE_CHECKING:
    from collections.abc import Callable


def ufunc_into_self(ufunc: Callable, self: Tensor, other: Any) -> bool:
    """Write ``ufunc(self, other)`` into self and return True, or return False (leaving self
    alone) when graphs, casts or a shape mismatch need the general path and its errors."""
    if not (
        type(self) is Tensor
        and (type(other) is Tensor or type(other) is float or type(other) is int)
        and self.dtype is not bool_
        and promotion._dtype_of(self, other) is self.dtype
        and not ops_inplace.records_history(self, (other,))
    ):
        return False
    ops_inplace.check_inplace_allowed(self, other)
    try:
        ufunc(self._data, promotion._operand(other, self.dtype), out=self._data)
    except ValueError:  # other does not broadcast to self: the general path raises torch's error
        return False
    self._storage.version += 1
    return True

