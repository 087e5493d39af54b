"""Anomaly mode: find the forward op whose backward produced a NaN.

A NaN in a gradient is usually noticed at the leaves (``w.grad`` is all nan), far from its
cause. In anomaly mode every graph node remembers the stack of the forward call that made it,
and the engine checks each gradient a node returns: the first NaN raises
``RuntimeError: Function 'XBackward0' returned nan values in its 0th output.``, after a warning
that shows the forward line responsible. It slows everything down: for debugging only.
"""

from __future__ import annotations

import traceback
import warnings
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .function import BackwardNode

__all__ = ["detect_anomaly", "is_anomaly_check_nan_enabled", "is_anomaly_enabled", "set_detect_anomaly"]

class _AnomalyState:
    enabled = False
    check_nan = True


state = _AnomalyState()


def is_anomaly_enabled() -> bool:
    return state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    return state.check_nan


class _AnomalySwitch:
    """What detect_anomaly and set_detect_anomaly share: the mode is restored on exit."""

    def __init__(self, mode: bool, check_nan: bool) -> None:
        self.mode, self.check_nan = mode, check_nan
        self.previous = (state.enabled, state.check_nan)

    def __enter__(self) -> None:
        self.previous = (state.enabled, state.check_nan)
        state.enabled, state.check_nan = self.mode, self.check_nan

    def __exit__(self, *exc: object) -> None:
        state.enabled, state.check_nan = self.previous



class detect_anomaly(_AnomalySwitch):  # noqa: N801 - torch's name
    """``with detect_anomaly():`` runs the block in anomaly mode (a context manager only, as in torch)."""

    def __init__(self, check_nan: bool = True) -> None:
        super().__init__(True, check_nan)
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled for debugging.",
            stacklevel=2,
        )


class set_detect_anomaly(_AnomalySwitch):  # noqa: N801 - torch's name
    """``set_detect_anomaly(True)`` switches the mode on at once (a plain call); used with
    ``with`` it switches back when the block ends."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        super().__init__(mode, check_nan)  # remembers the mode before this call
        state.enabled, state.check_nan = mode, check_nan

    def __enter__(self) -> None:
        pass  # already switched by the call itself


# --- what the rest of autograd calls ----------------------------------------------------------
def remember_forward(node: BackwardNode) -> None:
    """Called when a node is recorded in anomaly mode: keep the forward call's stack."""
    node.anomaly_forward_stack = "".join(traceback.format_stack()[:-3])


def check_backward_result(node: BackwardNode, input_grads: list) -> None:
    """Called after each backward in anomaly mode: raise at the first gradient with a NaN."""
    if not state.check_nan:
        return
    for index, grad in enumerate(input_grads):
        if grad is not None and grad.dtype.is_floating_point and np.isnan(grad._data).any():
            stack = getattr(node, "anomaly_forward_stack", None)
            if stack is not None:
                warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n{stack}", stacklevel=2)
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {index}th output.")
