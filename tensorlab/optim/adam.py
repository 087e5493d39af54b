"""Adam and AdamW, step for step as torch's single-tensor implementation.

Per parameter p with gradient g (negated if maximize), at step t:
    AdamW: p = p * (1 - lr * weight_decay)        Adam: g = g + weight_decay * p
    m = m + (1 - beta1) * (g - m)                  (first moment, a running mean of g)
    v = beta2 * v + (1 - beta2) * g * g            (second moment, a running mean of g^2)
    v_max = max(v_max, v) if amsgrad
    p = p - lr / (1 - beta1^t) * m / (sqrt(v or v_max) / sqrt(1 - beta2^t) + eps)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._creation import tensor, zeros_like
from .._dtype import float32
from .optimizer import Optimizer

__all__ = ["Adam", "AdamW"]


def _lerp_(start: Any, end: Any, weight: float) -> Any:
    """start += weight * (end - start), in place, rounded as torch's lerp_ rounds."""
    if weight < 0.5:
        return start.add_(end - start, alpha=weight)
    return start.copy_(end - (end - start) * (1 - weight))


class Adam(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0, amsgrad: bool = False, *, foreach: bool | None = None, maximize: bool = False, capturable: bool = False, differentiable: bool = False, fused: bool | None = None, decoupled_weight_decay: bool = False) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize,
            foreach=foreach, capturable=capturable, differentiable=differentiable, fused=fused,
            decoupled_weight_decay=decoupled_weight_decay,
        )
        super().__init__(params, defaults)

    def _state_for(self, param: Any, amsgrad: bool) -> dict[str, Any]:
        state = self.state[param]
        if not state:
            state["step"] = tensor(0.0, dtype=float32)
            state["exp_avg"] = zeros_like(param)
            state["exp_avg_sq"] = zeros_like(param)
            if amsgrad:
                state["max_exp_avg_sq"] = zeros_like(param)
        return state

    def _update(self, param: Any, group: dict[str, Any]) -> None:
        lr, (beta1, beta2), eps, weight_decay = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        grad = -param.grad if group["maximize"] else param.grad
        state = self._state_for(param, group["amsgrad"])
        state["step"].add_(1)
        step = state["step"].item()
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        _lerp_(exp_avg, grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).add_(grad * (1 - beta2) * grad)  # torch's addcmul_ order
        bias_correction1 = 1 - beta1**step
        bias_correction2_sqrt = (1 - beta2**step) ** 0.5
        step_size = lr / bias_correction1
        second_moment = exp_avg_sq
        if group["amsgrad"]:
            state["max_exp_avg_sq"].copy_(state["max_exp_avg_sq"].maximum(exp_avg_sq))
            second_moment = state["max_exp_avg_sq"]
        denom = (second_moment.sqrt() / bias_correction2_sqrt).add_(eps)
        param.add_(exp_avg * -step_size / denom)  # torch's addcdiv_ order


class AdamW(Adam):
    """Adam with decoupled weight decay: p shrinks by lr * weight_decay before the Adam step."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False, foreach: bool | None = None, capturable: bool = False, differentiable: bool = False, fused: bool | None = None) -> None:
        super().__init__(
            params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
            capturable=capturable, differentiable=differentiable, fused=fused, decoupled_weight_decay=True,
        )
