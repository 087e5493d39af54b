"""Optimizer: the bookkeeping every optimizer shares.

An optimizer holds ``param_groups`` (lists of parameters, each with its own options such as lr)
and a per-parameter ``state`` (momentum buffers, running averages). ``step()`` reads each
parameter's ``.grad`` and updates the parameter in place, outside autograd.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from .._tensor import Tensor
from ..autograd.grad_mode import enable_grad, no_grad
from ..utils.grads import zero_grads

__all__ = ["Optimizer", "required"]


class _Required:
    """Marker for an option without a default (torch's ``required``)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _Required()


class Optimizer:
    """Base class: subclasses set ``defaults`` and implement ``step``."""

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or dicts, "
                f"but got tensorlab.{params.dtype.name.capitalize()}Tensor"
            )
        groups = list(params)
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters with its own options; missing options take the defaults."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering of tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {type(param).__name__}")
            if not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)
        existing = {id(p) for group in self.param_groups for p in group["params"]}
        if any(id(p) in existing for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        zero_grads((param for group in self.param_groups for param in group["params"]), set_to_none)

    def step(self, closure: Any = None) -> Any:
        """One update of every parameter that has a gradient (``closure`` re-evaluates the loss)."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                for param in group["params"]:
                    if param.grad is not None:
                        self._update(param, group)
        return loss

    def _update(self, param: Any, group: dict[str, Any]) -> None:
        """The optimizer's rule for one parameter: what each subclass defines."""
        raise NotImplementedError

    # --- saving and restoring ----------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """Options per group and state per parameter, with parameters replaced by their index."""
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for param in group["params"]:
                index.setdefault(id(param), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: s for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        state_dict = copy.deepcopy(state_dict)
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(s["params"]) != len(g["params"]) for s, g in zip(saved_groups, self.param_groups, strict=True)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of optimizer's group")
        by_index: dict[int, Tensor] = {}
        for saved, group in zip(saved_groups, self.param_groups, strict=True):
            by_index.update(zip(saved["params"], group["params"], strict=True))
        self.state = defaultdict(dict)
        for i, value in state_dict["state"].items():
            param = by_index[i]
            self.state[param] = {
                k: v.to(param.dtype) if isinstance(v, Tensor) and k != "step" and v.is_floating_point() else v
                for k, v in value.items()
            }
        for saved, group in zip(saved_groups, self.param_groups, strict=True):
            saved["params"] = group["params"]
        self.param_groups = saved_groups

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}"
            for key in sorted(group):
                if key != "params":
                    text += f"\n    {key}: {group[key]}"
        return text + "\n)"
