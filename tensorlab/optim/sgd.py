"""SGD with momentum, dampening, Nesterov momentum, weight decay and ``maximize``, as torch.

Per parameter p with gradient g (negated if maximize):
    g = g + weight_decay * p
    b = g (first step), else b = momentum * b + (1 - dampening) * g
    g = g + momentum * b if nesterov else b
    p = p - lr * g
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 1e-3, momentum: float = 0, dampening: float = 0, weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False, foreach: bool | None = None, differentiable: bool = False, fused: bool | None = None) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(
            lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay, nesterov=nesterov,
            maximize=maximize, foreach=foreach, differentiable=differentiable, fused=fused,
        )
        super().__init__(params, defaults)

    def _update(self, param: Any, group: dict[str, Any]) -> None:
        grad = -param.grad if group["maximize"] else param.grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        momentum = group["momentum"]
        if momentum != 0:
            state = self.state[param]
            buffer = state.get("momentum_buffer")
            if buffer is None:
                buffer = grad.clone().detach()
                state["momentum_buffer"] = buffer
            else:
                buffer.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buffer, alpha=momentum) if group["nesterov"] else buffer
        param.add_(grad, alpha=-group["lr"])
