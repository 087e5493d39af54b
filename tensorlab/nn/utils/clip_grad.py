"""Gradient clipping: keep one bad batch from throwing the weights far away.

``clip_grad_norm_`` treats all the gradients as one long vector: when its length (the norm of the
per-parameter norms) exceeds ``max_norm``, every gradient is scaled by the same factor, so the
direction of the step is kept and only its size shrinks. ``clip_grad_value_`` clamps each
element on its own, which can change the direction. Both work in place on ``.grad``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad


def _gradients(parameters: Tensor | Iterable[Tensor]) -> list[Tensor]:
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(
    parameters: Tensor | Iterable[Tensor], max_norm: float, norm_type: float | str = 2.0,
    error_if_nonfinite: bool = False, foreach: bool | None = None,
) -> Tensor:
    """Scale all gradients by min(1, max_norm / (total_norm + 1e-6)); return total_norm."""
    from ... import stack, tensor

    grads = _gradients(parameters)
    norm_type = float(norm_type)
    if not grads:
        return tensor(0.0)
    with no_grad():
        if math.isinf(norm_type):
            total_norm = stack([g.detach().abs().max() for g in grads]).max()
        else:
            total_norm = stack([g.detach().norm(norm_type) for g in grads]).norm(norm_type)
        if error_if_nonfinite and not math.isfinite(total_norm.item()):
            raise RuntimeError(
                f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be "
                "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
                "`error_if_nonfinite=False`"
            )
        scale = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(scale.to(g.dtype))
    return total_norm


def clip_grad_value_(parameters: Tensor | Iterable[Tensor], clip_value: float, foreach: bool | None = None) -> None:
    """Clamp every gradient element into [-clip_value, clip_value]."""
    with no_grad():
        for g in _gradients(parameters):
            g.clamp_(min=-clip_value, max=clip_value)


__all__ = ["clip_grad_norm_", "clip_grad_value_"]
