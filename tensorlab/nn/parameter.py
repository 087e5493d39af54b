"""Parameter: a Tensor that a Module registers as one of its learnable weights.

Assigning a Parameter to a module attribute (``self.weight = Parameter(...)``) is what puts it in
``module.parameters()``; a plain Tensor attribute is not registered. A Parameter shares storage
with the tensor it wraps and requires grad by default. Results of ops on it are plain Tensors.
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor, _init_from
from ..serialization import REBUILD_PARAMETER, register_saved_subclass

__all__ = ["Parameter"]


class Parameter(Tensor):
    """``Parameter(data, requires_grad=True)``: a leaf tensor that modules collect as weights."""

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            from .._creation import empty

            data = empty(0)
        _init_from(self, data.detach())
        self.requires_grad = requires_grad

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        return object.__new__(cls)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __deepcopy__(self, memo: dict) -> Parameter:
        copy = Parameter(self.detach().clone(), self.requires_grad)
        if self._grad is not None:
            copy._grad = self._grad.clone()
        memo[id(self)] = copy
        return copy

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (_rebuild_parameter, (self.detach().clone(), self.requires_grad))


def _rebuild_parameter(data: Tensor, requires_grad: bool) -> Parameter:
    return Parameter(data, requires_grad)


def _load_parameter(data: Tensor, requires_grad: bool, backward_hooks: Any, state: Any = None) -> Parameter:
    """What ``tensorlab.load`` calls for torch's ``_rebuild_parameter`` in a checkpoint."""
    return Parameter(data, requires_grad)


register_saved_subclass(Parameter, REBUILD_PARAMETER, _load_parameter, "_rebuild_parameter_with_state")
