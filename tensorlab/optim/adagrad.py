"""Adagrad, step for step as torch's single-tensor implementation.

Per parameter p with gradient g (negated if maximize), at step t:
    g = g + weight_decay * p
    s = s + g * g                                  (the sum of every squared gradient so far)
    p = p - lr / (1 + (t - 1) * lr_decay) * g / (sqrt(s) + eps)
The sum only grows, so each coordinate's step shrinks as it keeps receiving gradient: rare
features keep large steps, frequent ones slow down. (RMSprop replaces the sum by a running mean,
so steps stop shrinking.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._creation import full_like, tensor
from .._dtype import float32
from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0, initial_accumulator_value: float = 0, eps: float = 1e-10, foreach: bool | None = None, *, maximize: bool = False, differentiable: bool = False, fused: bool | None = None) -> None:
        checks = (
            ("learning rate", lr), ("lr_decay value", lr_decay), ("weight_decay value", weight_decay),
            ("initial_accumulator_value value", initial_accumulator_value), ("epsilon value", eps),
        )
        for name, value in checks:
            if not value >= 0.0:
                raise ValueError(f"Invalid {name}: {value}")
        defaults = dict(
            lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay, initial_accumulator_value=initial_accumulator_value,
            foreach=foreach, maximize=maximize, differentiable=differentiable, fused=fused,
        )
        super().__init__(params, defaults)
        for group in self.param_groups:  # torch fills the state at construction, not at the first step
            for param in group["params"]:
                self.state[param]["step"] = tensor(0.0, dtype=float32)
                self.state[param]["sum"] = full_like(param, initial_accumulator_value)

    def _update(self, param: Any, group: dict[str, Any]) -> None:
        state = self.state[param]
        state["step"].add_(1)
        step = state["step"].item()
        grad = -param.grad if group["maximize"] else param.grad
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])
        decayed_lr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        state["sum"].add_(grad * 1 * grad)  # torch's addcmul_(grad, grad, value=1)
        std = state["sum"].sqrt().add_(group["eps"])
        param.add_(grad * -decayed_lr / std)  # torch's addcdiv_ order
