"""RMSprop, step for step as torch's single-tensor implementation.

Per parameter p with gradient g (negated if maximize):
    g = g + weight_decay * p
    v = alpha * v + (1 - alpha) * g * g          (a running mean of g^2: the gradient's scale)
    centered: m = m + (1 - alpha) * (g - m), and v - m^2 (a variance) replaces v below
    d = sqrt(v) + eps
    momentum: b = momentum * b + g / d,  p = p - lr * b
    else:     p = p - lr * g / d
Dividing by the running root-mean-square gives every coordinate a step of about lr, whatever the
size of its gradient: the idea Adam builds on (Adam adds the first moment and bias correction).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._creation import tensor, zeros_like
from .._dtype import float32
from .adam import _lerp_
from .optimizer import Optimizer

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0, centered: bool = False, capturable: bool = False, foreach: bool | None = None, maximize: bool = False, differentiable: bool = False) -> None:
        for name, value in (("learning rate", lr), ("epsilon value", eps), ("momentum value", momentum), ("weight_decay value", weight_decay), ("alpha value", alpha)):
            if not value >= 0.0:
                raise ValueError(f"Invalid {name}: {value}")
        defaults = dict(
            lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered, weight_decay=weight_decay,
            capturable=capturable, foreach=foreach, maximize=maximize, differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _state_for(self, param: Any, group: dict[str, Any]) -> dict[str, Any]:
        state = self.state[param]
        if not state:
            state["step"] = tensor(0.0, dtype=float32)
            state["square_avg"] = zeros_like(param)
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = zeros_like(param)
        return state

    def _update(self, param: Any, group: dict[str, Any]) -> None:
        lr, alpha, eps, momentum = group["lr"], group["alpha"], group["eps"], group["momentum"]
        grad = -param.grad if group["maximize"] else param.grad
        state = self._state_for(param, group)
        state["step"].add_(1)
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        square_avg = state["square_avg"]
        square_avg.mul_(alpha).add_(grad * (1 - alpha) * grad)  # torch's addcmul_ order
        if group["centered"]:
            grad_avg = state["grad_avg"]
            _lerp_(grad_avg, grad, 1 - alpha)
            avg = (square_avg - grad_avg * grad_avg).sqrt()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(eps)
        if momentum > 0:
            buffer = state["momentum_buffer"]
            buffer.mul_(momentum).add_(grad / avg)
            param.add_(buffer, alpha=-lr)
        else:
            param.add_(grad * -lr / avg)  # torch's addcdiv_ order
