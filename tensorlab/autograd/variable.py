"""``Variable``: the wrapper old PyTorch code (before 0.4) put around tensors for autograd.

Since torch 0.4 every Tensor can record a graph, so ``Variable(x, requires_grad=True)`` just
returns a tensor: ``x`` detached (same storage, no history) with ``requires_grad`` set. The name is
kept so that old course material runs; new code writes ``x.requires_grad_()`` or
``torch.tensor(..., requires_grad=True)``. ``isinstance(t, Variable)`` is True for every tensor.
"""

from __future__ import annotations

import warnings
from typing import Any

from .._tensor import Tensor


class _VariableMeta(type):
    def __instancecheck__(cls, other: Any) -> bool:
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """Deprecated: ``Variable(data, requires_grad=False)`` returns a Tensor, as torch's does."""

    def __new__(cls, data: Any = None, requires_grad: bool = False, volatile: bool = False) -> Tensor:  # type: ignore[misc]
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.", UserWarning, stacklevel=2)
        if data is None:
            from .._creation import empty

            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        tensor = data.detach()
        return tensor.requires_grad_(True) if requires_grad else tensor


__all__ = ["Variable"]
